import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { type CompressedMessage, createMessage, decodeMessage, signObject } from "../src/index.js";
import { COMPRESSION_THRESHOLD_BYTES, MAX_DECOMPRESSED_BYTES } from "../src/internal.js";
import {
  compressMessage,
  createNodeInboundPipeline,
  decompressMessage,
} from "../src/node/index.js";
import { harness, NOW } from "./support/pipeline.js";
import { ALICE, BOB, NODE } from "./support/samples.js";

// Property tests here run hundreds of signatures or inflations: a bound per file, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

function bigStream(nodes: number) {
  return createMessage({
    type: "ocp.knowledge.stream",
    from: ALICE,
    to: BOB,
    timestamp: new Date(NOW).toISOString(),
    payload: {
      streamId: "s",
      isIncremental: false,
      sequenceNumber: 1,
      nodes: Array.from({ length: nodes }, (_, i) => ({ ...NODE, id: `node-${i}` })),
    },
  });
}

describe("compression (§12.2)", () => {
  it.each(["gzip", "brotli"] as const)(
    "%s: compresses above the threshold and round-trips",
    (algorithm) => {
      const message = bigStream(40);
      const compressed = compressMessage(message, { algorithm }) as CompressedMessage;
      expect(compressed.compression).toBe(algorithm);
      expect("payload" in compressed).toBe(false);
      expect(compressed.compressedPayload.length).toBeLessThan(
        JSON.stringify(message.payload).length / 4,
      );
      expect(decodeMessage(JSON.parse(JSON.stringify(compressed))).ok).toBe(true);
      const restored = decompressMessage(compressed);
      expect(restored.ok && restored.value).toEqual(message);
    },
  );

  it(`leaves payloads under COMPRESSION_THRESHOLD_BYTES (${COMPRESSION_THRESHOLD_BYTES}) alone`, () => {
    const small = createMessage({
      type: "ocp.sync.accept",
      from: ALICE,
      to: BOB,
      payload: { syncId: "s", accepted: true },
    });
    expect(compressMessage(small)).toBe(small);
    const payloadBytes = Buffer.byteLength(JSON.stringify(small.payload));
    expect(
      (compressMessage(small, { thresholdBytes: payloadBytes }) as CompressedMessage).compression,
    ).toBe("gzip");
    expect(compressMessage(small, { thresholdBytes: payloadBytes + 1 })).toBe(small);
  });

  it(`caps inflation: a small gzip bomb is refused with decompressed_too_large (default ${MAX_DECOMPRESSED_BYTES} bytes)`, () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    const message = {
      ...bigStream(1),
      compression: "gzip",
      compressedPayload: bomb.toString("base64"),
    } as unknown as CompressedMessage;
    const result = decompressMessage(message);
    expect(!result.ok && result.error.code).toBe("decompressed_too_large");
    const json = Buffer.from(JSON.stringify({ syncId: "s", accepted: true }));
    const fits = {
      ...message,
      type: "ocp.sync.accept",
      compressedPayload: gzipSync(json).toString("base64"),
    } as unknown as CompressedMessage;
    expect(decompressMessage(fits, json.length).ok).toBe(true);
    const over = decompressMessage(fits, json.length - 1);
    expect(!over.ok && over.error.code).toBe("decompressed_too_large");
  });

  it("refuses corrupt data, non-JSON and a payload invalid for the type", () => {
    const base = { ...bigStream(1), compression: "gzip" } as unknown as CompressedMessage;
    const corrupt = decompressMessage({ ...base, compressedPayload: "AAAAAAAA" });
    expect(!corrupt.ok && corrupt.error.code).toBe("decompression_failed");
    const notJson = decompressMessage({
      ...base,
      compressedPayload: gzipSync("{oops").toString("base64"),
    });
    expect(!notJson.ok && notJson.error.code).toBe("decompression_failed");
    const invalid = decompressMessage({
      ...base,
      compressedPayload: gzipSync('{"streamId":1}').toString("base64"),
    });
    expect(!invalid.ok && invalid.error.code).toBe("invalid_message");
  });

  it("the node pipeline verifies the signature over the compressed form, then inflates", async () => {
    const h = harness();
    const pipeline = createNodeInboundPipeline({
      lookupKey: () => h.alice.publicKey,
      now: h.clock.now,
    });
    const message = bigStream(30);
    const signed = signObject(compressMessage(message, { algorithm: "brotli" }), h.alice.secretKey);
    const accepted = await pipeline.accept(JSON.stringify(signed));
    expect(accepted.ok && accepted.value.message).toEqual(message);
    const swapped = { ...signed, id: crypto.randomUUID(), compression: "gzip" };
    const refused = await pipeline.accept(JSON.stringify(swapped));
    expect(!refused.ok && refused.error.code).toBe("signature_invalid");
  });

  it("the portable pipeline refuses compressed messages it cannot inflate with a typed error", async () => {
    const h = harness();
    const signed = signObject(compressMessage(bigStream(30)), h.alice.secretKey);
    const result = await h.pipeline.accept(JSON.stringify(signed));
    expect(!result.ok && result.error.code).toBe("decompression_failed");
  });
});
