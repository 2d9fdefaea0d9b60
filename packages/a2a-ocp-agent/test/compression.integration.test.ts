/**
 * §12.2 compression between real agents over a real hub and real
 * WebSockets: each receiver connects through a wire tap that records the
 * frames the hub sends it, byte for byte.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  generateIdentity,
  type KnowledgeNode,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { isHubFrame, MAX_DECOMPRESSED_BYTES, parseDeliver } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { tempDir } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { announceCompression } from "../src/compression.js";
import { hubLink } from "../src/hub-link.js";
import { AGENT_COMPRESSION_THRESHOLD_BYTES } from "../src/limits.js";
import { until, within } from "./support.js";
import { type WireTap, wireTap } from "./wire-tap.js";

const { dir, cleanup } = tempDir("ocp-compress-");
let hub: OCPHub;
const agents: OCPAgent[] = [];
const taps: WireTap[] = [];
const run = process.pid;

/** Knowledge nodes built from this repository's own wire document, one per section. */
function docNodes(createdBy: string, marker: string): KnowledgeNode[] {
  const text = readFileSync(new URL("../../../docs/a2a-ocp-wire.md", import.meta.url), "utf8");
  return text
    .split(/\n(?=## )/)
    .filter((section) => section.length > 400)
    .slice(0, 6)
    .map((section, i) => ({
      id: `${marker}-${i}`,
      type: "doc.section",
      title: `${marker} ${section.split("\n")[0]?.replace(/^#+\s*/, "")}`,
      description: section,
      data: { source: "docs/a2a-ocp-wire.md", section: i },
      confidence: 0.9,
      timestamp: "2026-01-01T00:00:00Z",
      createdBy,
      tags: ["docs", "wire"],
      metadata: { domain: "docs" },
    }));
}

interface Joined {
  agent: OCPAgent;
  identity: AgentIdentity;
  /** The frames the hub sent this agent (when tapped). */
  frames: string[];
  tap?: WireTap;
}

async function join(name: string, options: { announce: boolean; tap: boolean }): Promise<Joined> {
  const identity = generateIdentity(`a2a://${name}-${run}`);
  const extra = options.announce ? announceCompression() : {};
  const profile = createAgentProfile(identity, { extra }, nativeEd25519);
  const tap = options.tap ? await wireTap(hub.url) : undefined;
  if (tap !== undefined) taps.push(tap);
  const client = await HubClient.connect({
    url: tap?.url ?? hub.url,
    identity,
    profile,
    reconnect: false,
  });
  const agent = new OCPAgent({ identity, link: hubLink(client) }).start();
  agents.push(agent);
  return { agent, identity, frames: tap?.frames ?? [], ...(tap === undefined ? {} : { tap }) };
}

/** The messages (parsed) inside the frames a receiver got, of `type`. */
function messagesOf(frames: readonly string[], type: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const frame of frames) {
    const raw = isHubFrame(frame) ? parseDeliver(frame)?.raw : frame;
    if (raw === undefined) continue;
    const message = JSON.parse(raw) as Record<string, unknown>;
    if (message["type"] === type) out.push(message);
  }
  return out;
}

function framesWith(frames: readonly string[], marker: string): string[] {
  return frames.filter((frame) => frame.includes(marker));
}

let alice: Joined;
let bob: Joined;
let carol: Joined;
let dave: Joined;

beforeAll(async () => {
  hub = await OCPHub.start({
    dbPath: `${dir}/hub.sqlite`,
    rateLimits: { messages: 100_000, broadcasts: 100_000, collectiveQueries: 1000 },
    onError: () => {},
  });
  // Everyone joins before the first send: senders read the cards once (COMPRESSION_CARDS_MAX_AGE_MS).
  alice = await join("alice", { announce: true, tap: false });
  bob = await join("bob", { announce: true, tap: true });
  carol = await join("carol", { announce: false, tap: true });
  dave = await join("dave", { announce: true, tap: true });
});

afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await Promise.all(taps.map((t) => t.close()));
  await hub.close();
  cleanup();
});

describe("§12.2 compression over a real hub", () => {
  it("a knowledge stream above the threshold reaches a recipient that announced compression compressed on the wire, and intact", async () => {
    const nodes = docNodes(alice.identity.id, "stream-big");
    expect(Buffer.byteLength(JSON.stringify(nodes))).toBeGreaterThan(
      AGENT_COMPRESSION_THRESHOLD_BYTES,
    );
    await bob.agent.subscribe(alice.identity.id, { deliveryMode: "push", batchSize: 100 });
    await alice.agent.streamKnowledge(nodes);
    await until(() => nodes.every((n) => bob.agent.node(n.id) !== undefined), "bob has the stream");

    const streams = messagesOf(bob.frames, "ocp.knowledge.stream");
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({ compression: "gzip" });
    expect(streams[0]?.["payload"]).toBeUndefined();
    // Not one frame the hub sent bob carries the nodes' text in clear.
    expect(framesWith(bob.frames, "stream-big")).toEqual([]);
    const wireBytes = Buffer.byteLength(JSON.stringify(streams[0]));
    expect(wireBytes).toBeLessThan(Buffer.byteLength(JSON.stringify(nodes)));
    for (const n of nodes) {
      expect(bob.agent.node(n.id)).toMatchObject({ title: n.title, description: n.description });
    }
  });

  it("a stream below the threshold goes plain", async () => {
    const small: KnowledgeNode = {
      ...(docNodes(alice.identity.id, "stream-small")[0] as KnowledgeNode),
      description: "short",
    };
    expect(Buffer.byteLength(JSON.stringify(small))).toBeLessThan(
      AGENT_COMPRESSION_THRESHOLD_BYTES,
    );
    await alice.agent.streamKnowledge([small]);
    await until(() => bob.agent.node(small.id) !== undefined, "bob has the small node");
    const streams = messagesOf(framesWith(bob.frames, "stream-small"), "ocp.knowledge.stream");
    expect(streams).toHaveLength(1);
    expect(streams[0]?.["compression"]).toBeUndefined();
    expect(streams[0]?.["payload"]).toMatchObject({ nodes: [{ id: small.id }] });
  });

  it("a recipient whose card does not announce compression gets the same stream plain", async () => {
    await carol.agent.subscribe(alice.identity.id, { deliveryMode: "push", batchSize: 100 });
    const nodes = docNodes(alice.identity.id, "stream-carol");
    await alice.agent.streamKnowledge(nodes);
    await until(() => nodes.every((n) => carol.agent.node(n.id) !== undefined), "carol has it");
    const streams = messagesOf(framesWith(carol.frames, "stream-carol"), "ocp.knowledge.stream");
    expect(streams).toHaveLength(1);
    expect(streams[0]?.["compression"]).toBeUndefined();
    expect(messagesOf(carol.frames, "ocp.knowledge.stream").every((m) => !m["compression"])).toBe(
      true,
    );
    // Bob, who announced it, got the same nodes compressed.
    const toBob = messagesOf(bob.frames, "ocp.knowledge.stream").filter((m) => m["compression"]);
    expect(toBob).toHaveLength(2);
  });

  it("sync pages and collective answers go compressed to a recipient that announced it, and are read intact", async () => {
    const report = await within(dave.agent.syncKnowledge(alice.identity.id), 20_000, "sync");
    expect(report.itemsSynced).toBeGreaterThanOrEqual(12);
    const pages = messagesOf(dave.frames, "ocp.knowledge.sync.response");
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((p) => p["compression"] === "gzip")).toBe(true);
    expect(dave.agent.node("stream-big-0")?.description).toBe(
      docNodes(alice.identity.id, "stream-big")[0]?.description,
    );

    const answer = await within(
      dave.agent.collectiveQuery("stream-big wire frames hub", { timeout: 5_000, minResponses: 1 }),
      15_000,
      "collective query",
    );
    expect(answer.responses.length).toBeGreaterThan(0);
    const responses = messagesOf(dave.frames, "ocp.collective.response");
    expect(responses.length).toBeGreaterThan(0);
    expect(responses.every((r) => r["compression"] === "gzip")).toBe(true);
    expect(framesWith(dave.frames, "stream-big")).toEqual([]);
  });

  it("a compressed payload that inflates past the limit, or is corrupt, delivered past the hub's checks, is an error event with its reason and the agent keeps working", async () => {
    const errors: Array<{ code?: unknown }> = [];
    bob.agent.on("error", (error) => errors.push(error as { code?: unknown }));
    // Signed by alice, as a sender's compressed message is: only the inflation can refuse it.
    const forged = (compressedPayload: string) => {
      const { payload: _plain, ...envelope } = createMessage({
        type: "ocp.knowledge.stream",
        from: alice.identity.id,
        to: bob.identity.id,
        payload: { streamId: "s", nodes: [], isIncremental: true, sequenceNumber: 1 },
      }) as Record<string, unknown>;
      const compressed = { ...envelope, compression: "gzip", compressedPayload };
      return JSON.stringify(signObject(compressed, alice.identity.secretKey, nativeEd25519));
    };
    const bomb = gzipSync(Buffer.alloc(MAX_DECOMPRESSED_BYTES + 1024, 0x20)).toString("base64");
    expect(bomb.length).toBeLessThan(64 * 1024);
    bob.tap?.inject(forged(bomb));
    bob.tap?.inject(forged(Buffer.from("not gzip at all").toString("base64")));
    await until(() => errors.length === 2, "two error events");
    expect(errors.map((e) => e.code)).toEqual(["decompressed_too_large", "decompression_failed"]);

    const after = docNodes(alice.identity.id, "after-bomb");
    await alice.agent.streamKnowledge(after);
    await until(() => after.every((n) => bob.agent.node(n.id) !== undefined), "bob still reads");
  });
});
