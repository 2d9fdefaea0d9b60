/**
 * §12.2 at the hub, over real sockets: a compressed message is checked on
 * its inflated payload exactly as a plain one (authorship, §8.5 visibility,
 * payload limits), forwarded as the sender's exact bytes, and one that
 * cannot be read is refused with its named reason — a zip bomb among them.
 */
import { gzipSync } from "node:zlib";
import {
  createMessage,
  type KnowledgeNode,
  type PlainMessage,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { MAX_BATCH_ITEMS, MAX_DECOMPRESSED_BYTES } from "@ocp/a2a-ocp-messaging/internal";
import { compressMessage } from "@ocp/a2a-ocp-messaging/node";
import type { RawAgent } from "@ocp/testkit";
import { describe, expect, it } from "vitest";
import { hubAnswer, hubPerTest, node, type Signer, until } from "./support.js";

const hubs = hubPerTest();

const raw = (name: string) => hubs.signer(name);

/** Sends `message` (already compressed, or plain) signed by `from`; resolves with the hub's answer. */
async function send(from: Signer, message: object) {
  const signed = signObject(message as Record<string, unknown>, from.id.secretKey);
  const id = String(signed["id"]);
  return { id, ...(await hubAnswer(from.raw, signed, id)) };
}

/** A stream of `nodes` from `from` to `to`, compressed (gzip, any size). */
function compressedStream(from: string, to: string, nodes: unknown[]): object {
  const plain = createMessage({
    type: "ocp.knowledge.stream",
    from,
    to,
    payload: {
      streamId: "s",
      nodes: nodes as KnowledgeNode[],
      isIncremental: true,
      sequenceNumber: 1,
    },
  }) as PlainMessage;
  const compressed = compressMessage(plain, { thresholdBytes: 1 });
  expect(compressed).toHaveProperty("compressedPayload");
  return compressed;
}

/** A stream envelope from `from` to `to` whose compressedPayload is `bytes`, base64. */
function withCompressedBytes(from: string, to: string, bytes: Buffer): object {
  const { payload: _plain, ...envelope } = createMessage({
    type: "ocp.knowledge.stream",
    from,
    to,
    payload: { streamId: "s", nodes: [], isIncremental: true, sequenceNumber: 1 },
  }) as Record<string, unknown>;
  return { ...envelope, compression: "gzip", compressedPayload: bytes.toString("base64") };
}

const deliveredIds = (agent: RawAgent) =>
  agent.delivered().map((text) => (JSON.parse(text) as { id: string }).id);

describe("§12.2 the hub checks a compressed message on its inflated payload", () => {
  it("forwards a compressed stream as the sender's exact bytes", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const { id, code } = await send(
      alice,
      compressedStream(alice.id.id, bob.id.id, [node(alice.id.id, "zip-ok")]),
    );
    expect(code).toBeUndefined();
    await until(() => deliveredIds(bob.raw).includes(id), "bob gets it");
    const got = JSON.parse(bob.raw.delivered().find((t) => t.includes(id))!);
    expect(got).toMatchObject({ id, compression: "gzip" });
    expect(got.payload).toBeUndefined();
  });

  it("refuses a compressed node claimed for another author (not_author) and delivers nothing", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const mallory = await raw("mallory");
    const { id, code } = await send(
      mallory,
      compressedStream(mallory.id.id, bob.id.id, [node(alice.id.id, "zip-forged")]),
    );
    expect(code).toBe("not_author");
    const probe = await send(
      mallory,
      compressedStream(mallory.id.id, bob.id.id, [node(mallory.id.id, "m")]),
    );
    await until(() => deliveredIds(bob.raw).includes(probe.id), "later traffic reaches bob");
    expect(deliveredIds(bob.raw)).not.toContain(id);
  });

  it("applies §8.5 visibility to a compressed private node: a recipient it is not shared with is excluded", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const carol = await raw("carol");
    const secret = node(alice.id.id, "zip-secret", {
      visibility: "private",
      sharedWith: [bob.id.id],
    });
    const { id, answer } = await send(
      alice,
      compressedStream(alice.id.id, [bob.id.id, carol.id.id] as never, [secret]),
    );
    expect(answer.payload).toMatchObject({ recipients: 1, excluded: 1 });
    await until(() => deliveredIds(bob.raw).includes(id), "bob, who may see it, gets it");
    const probe = await send(
      alice,
      compressedStream(alice.id.id, carol.id.id, [node(alice.id.id, "p")]),
    );
    await until(() => deliveredIds(carol.raw).includes(probe.id), "later traffic reaches carol");
    expect(deliveredIds(carol.raw)).not.toContain(id);
  });

  it("refuses a zip bomb with decompressed_too_large: a few kilobytes that inflate past MAX_DECOMPRESSED_BYTES", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const bomb = gzipSync(Buffer.alloc(MAX_DECOMPRESSED_BYTES + 1, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { id, code, answer } = await send(
      alice,
      withCompressedBytes(alice.id.id, bob.id.id, bomb),
    );
    expect(code).toBe("decompressed_too_large");
    expect(String(answer.payload["message"])).toContain(String(MAX_DECOMPRESSED_BYTES));
    expect(deliveredIds(bob.raw)).not.toContain(id);
  });

  it("refuses a corrupt compressed payload with decompression_failed", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const corrupt = gzipSync(Buffer.from("{}")).subarray(0, 8);
    const { code } = await send(alice, withCompressedBytes(alice.id.id, bob.id.id, corrupt));
    expect(code).toBe("decompression_failed");
  });

  it("applies the payload's limits after inflation: a batch past MAX_BATCH_ITEMS is invalid_message", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const item = { streamId: "s", nodes: [], isIncremental: true, sequenceNumber: 1 };
    const payload = {
      batched: true,
      items: Array.from({ length: MAX_BATCH_ITEMS + 1 }, () => item),
    };
    const { code } = await send(
      alice,
      withCompressedBytes(alice.id.id, bob.id.id, gzipSync(Buffer.from(JSON.stringify(payload)))),
    );
    expect(code).toBe("invalid_message");
  });
});
