import {
  BROADCAST,
  createMessage,
  generateIdentity,
  type KnowledgeNode,
  type PlainMessage,
} from "@ocp/a2a-ocp-messaging";
import { decompressMessage } from "@ocp/a2a-ocp-messaging/node";
import { describe, expect, it } from "vitest";
import {
  announceCompression,
  cardCompression,
  inflatedPayload,
  OutboundCompression,
} from "../src/compression.js";
import { AGENT_COMPRESSION_THRESHOLD_BYTES, COMPRESSION_CARDS_MAX_AGE_MS } from "../src/limits.js";
import type { AgentLink } from "../src/link.js";
import { node } from "./support.js";

const alice = generateIdentity("a2a://zip-unit-alice");
const card = (id: string, compression?: unknown) => ({
  id,
  ...(compression === undefined ? {} : { capabilities: { ocp: { compression } } }),
});

/** A link whose directory holds `cards` (and counts reads); `fail`: the directory errs. */
function directory(cards: unknown[], fail = false) {
  const state = { reads: 0, cards };
  const link = {
    cards: async () => {
      state.reads += 1;
      if (fail) throw new Error("directory away");
      return state.cards;
    },
  } as unknown as AgentLink;
  return { link, state };
}

function stream(to: string | string[], descriptionBytes: number): PlainMessage {
  const n: KnowledgeNode = node({ createdBy: alice.id, description: "x".repeat(descriptionBytes) });
  return createMessage({
    type: "ocp.knowledge.stream",
    from: alice.id,
    to,
    payload: { streamId: "s", nodes: [n], isIncremental: true, sequenceNumber: 1 },
  }) as PlainMessage;
}

const big = AGENT_COMPRESSION_THRESHOLD_BYTES * 4;

describe("§12.2 outbound compression decisions", () => {
  it("compresses a stream above the threshold for a recipient whose card lists gzip, and it inflates back to the same payload", async () => {
    const { link } = directory([card("a2a://bob", ["gzip", "brotli"])]);
    const message = stream("a2a://bob", big);
    const out = await new OutboundCompression(link).prepare(message);
    expect(out).toMatchObject({ compression: "gzip" });
    expect("payload" in out).toBe(false);
    const back = decompressMessage(out as never);
    expect(back.ok && back.value.payload).toEqual(message.payload);
    expect(inflatedPayload(out as never)).toEqual(message.payload);
  });

  it("sends plain: below the threshold, a broadcast, a type outside streams/sync/answers, a recipient without the card entry, one of several without it, a sealed message, compression disabled", async () => {
    const { link } = directory([card("a2a://bob", ["gzip"]), card("a2a://carol")]);
    const c = new OutboundCompression(link);
    const edge = stream("a2a://bob", 0);
    const padding = AGENT_COMPRESSION_THRESHOLD_BYTES - JSON.stringify(edge.payload).length - 1;
    expect(await c.prepare(stream("a2a://bob", padding))).not.toHaveProperty("compression");
    expect(await c.prepare(stream("a2a://bob", padding + 1))).toHaveProperty("compression");
    expect(await c.prepare(stream(BROADCAST, big))).not.toHaveProperty("compression");
    expect(await c.prepare(stream("a2a://carol", big))).not.toHaveProperty("compression");
    expect(await c.prepare(stream("a2a://dave", big))).not.toHaveProperty("compression");
    expect(await c.prepare(stream(["a2a://bob", "a2a://carol"], big))).not.toHaveProperty(
      "compression",
    );
    const event = createMessage({
      type: "ocp.event.publish",
      from: alice.id,
      to: "a2a://bob",
      payload: {
        eventId: "e",
        eventType: "build.log",
        eventData: "x".repeat(big),
        timestamp: "2026-01-01T00:00:00Z",
        source: alice.id,
      },
    }) as PlainMessage;
    expect(await c.prepare(event)).toBe(event);
    const sealed = { ...stream("a2a://bob", big), encrypted: true } as never;
    expect(await c.prepare(sealed)).toBe(sealed); // sealed wins: never compressed too
    const off = new OutboundCompression(link, { enabled: false });
    expect(await off.prepare(stream("a2a://bob", big))).not.toHaveProperty("compression");
  });

  it("uses the algorithm asked for only with recipients that list it", async () => {
    const { link } = directory([card("a2a://bob", ["gzip"]), card("a2a://eve", ["brotli"])]);
    const c = new OutboundCompression(link, { algorithm: "brotli" });
    expect(await c.prepare(stream("a2a://bob", big))).not.toHaveProperty("compression");
    expect(await c.prepare(stream("a2a://eve", big))).toMatchObject({ compression: "brotli" });
  });

  it("reads the cards once per COMPRESSION_CARDS_MAX_AGE_MS, and a directory that fails means plain", async () => {
    let now = 0;
    const { link, state } = directory([card("a2a://bob", ["gzip"])]);
    const c = new OutboundCompression(link, {}, () => now);
    await c.prepare(stream("a2a://bob", big));
    await c.prepare(stream("a2a://bob", big));
    expect(state.reads).toBe(1);
    state.cards = [card("a2a://bob")]; // bob withdraws the announcement
    now += COMPRESSION_CARDS_MAX_AGE_MS;
    expect(await c.prepare(stream("a2a://bob", big))).not.toHaveProperty("compression");
    expect(state.reads).toBe(2);

    const failing = directory([card("a2a://bob", ["gzip"])], true);
    const out = await new OutboundCompression(failing.link).prepare(stream("a2a://bob", big));
    expect(out).not.toHaveProperty("compression");
  });

  it("a payload that does not shrink goes plain (base64 adds a third)", async () => {
    const { link } = directory([card("a2a://bob", ["gzip"])]);
    const random = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(big)));
    const message = createMessage({
      type: "ocp.knowledge.stream",
      from: alice.id,
      to: "a2a://bob",
      payload: {
        streamId: "s",
        nodes: [node({ createdBy: alice.id, description: random.toString("base64") })],
        isIncremental: true,
        sequenceNumber: 1,
      },
    }) as PlainMessage;
    expect(await new OutboundCompression(link).prepare(message)).toBe(message);
  });

  it("reads a card's compression entry defensively and merges the announcement into other capabilities", () => {
    expect(cardCompression(card("a2a://x", ["gzip", "zstd", 7]))).toEqual(["gzip"]);
    expect(cardCompression(card("a2a://x", "gzip"))).toEqual([]);
    expect(cardCompression(null)).toEqual([]);
    const extra = announceCompression({
      team: "core",
      capabilities: { protocols: ["a2a+ocp"], ocp: { features: ["knowledge_streaming"] } },
    });
    expect(extra).toEqual({
      team: "core",
      capabilities: {
        protocols: ["a2a+ocp"],
        ocp: { features: ["knowledge_streaming"], compression: ["gzip", "brotli"] },
      },
    });
  });
});
