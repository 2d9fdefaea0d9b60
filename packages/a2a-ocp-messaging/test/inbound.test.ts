import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  createMessage,
  decodeMessage,
  generateIdentity,
  type InboundErrorCode,
  InboundPipeline,
  MESSAGING_ERROR_CODES,
  RateLimiter,
  signObject,
} from "../src/index.js";
import {
  DEFAULT_TTL_SECONDS,
  MAX_CLOCK_SKEW_MS,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_BYTES,
} from "../src/internal.js";
import { plainMessage } from "./support/arbitraries.js";
import { harness, NOW } from "./support/pipeline.js";
import { ALICE, BOB, SAMPLE_PAYLOADS } from "./support/samples.js";

// Property tests here run hundreds of signatures or inflations: a bound per file, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

async function codeOf(
  pipeline: InboundPipeline,
  input: string | Uint8Array,
): Promise<InboundErrorCode | "ok"> {
  const result = await pipeline.accept(input);
  return result.ok ? "ok" : result.error.code;
}

describe("inbound pipeline: each stage", () => {
  it("accepts a signed, fresh, first-seen message and returns it typed", async () => {
    const { pipeline, wire } = harness();
    const result = await pipeline.accept(wire("ocp.consensus.vote"));
    if (!result.ok) throw result.error;
    expect(result.value.verified).toBe(true);
    expect(result.value.message.type).toBe("ocp.consensus.vote");
    expect(result.value.message.payload).toMatchObject({ vote: "approve", votedBy: BOB });
  });

  it("size cap: refuses maxMessageBytes + 1 bytes with message_too_large, and measures UTF-8 bytes", async () => {
    const { pipeline } = harness({ maxMessageBytes: 64 });
    expect(await codeOf(pipeline, "x".repeat(64))).toBe("invalid_json");
    expect(await codeOf(pipeline, "x".repeat(65))).toBe("message_too_large");
    expect(await codeOf(pipeline, "é".repeat(33))).toBe("message_too_large"); // 33 chars, 66 bytes
    expect(await codeOf(pipeline, new Uint8Array(65))).toBe("message_too_large");
  });

  it(`size cap defaults to MAX_MESSAGE_BYTES (${MAX_MESSAGE_BYTES})`, async () => {
    const { pipeline } = harness();
    expect(await codeOf(pipeline, " ".repeat(MAX_MESSAGE_BYTES))).toBe("invalid_json");
    expect(await codeOf(pipeline, " ".repeat(MAX_MESSAGE_BYTES + 1))).toBe("message_too_large");
  });

  it("JSON: refuses a signed message with a second `from` spliced in (duplicate_key, I-JSON), as text and as bytes", async () => {
    const { pipeline, wire } = harness();
    const text = wire("ocp.consensus.vote");
    const forged = text.replace(`"from":"${ALICE}"`, `"from":"a2a://victim","from":"${ALICE}"`);
    expect(forged).not.toBe(text);
    const result = await pipeline.accept(forged);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("duplicate_key");
      expect(result.error.details).toMatchObject({ key: "from", path: "from" });
    }
    expect(await codeOf(pipeline, new TextEncoder().encode(forged))).toBe("duplicate_key");
    expect(await codeOf(pipeline, text)).toBe("ok");
  });

  it("JSON: refuses non-JSON text and invalid UTF-8 bytes with invalid_json", async () => {
    const { pipeline } = harness();
    expect(await codeOf(pipeline, "{not json")).toBe("invalid_json");
    expect(await codeOf(pipeline, new Uint8Array([0x7b, 0xff, 0x7d]))).toBe("invalid_json");
  });

  it(`JSON: refuses nesting deeper than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) with message_too_deep`, async () => {
    const { pipeline } = harness();
    expect(
      await codeOf(pipeline, `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`),
    ).toBe("invalid_message");
    expect(
      await codeOf(pipeline, `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`),
    ).toBe("message_too_deep");
  });

  it("schema: refuses an invalid message with invalid_message and another major with incompatible_version", async () => {
    const { pipeline, wire } = harness();
    const message = JSON.parse(wire("ocp.consensus.vote"));
    expect(await codeOf(pipeline, JSON.stringify({ ...message, payload: { vote: "maybe" } }))).toBe(
      "invalid_message",
    );
    expect(await codeOf(pipeline, JSON.stringify({ ...message, version: "2.0.0" }))).toBe(
      "incompatible_version",
    );
  });

  it("signature: signature_missing, unknown_sender, signature_invalid", async () => {
    const { pipeline, wire } = harness();
    const { signature: _s, ...unsigned } = JSON.parse(wire("ocp.sync.accept"));
    expect(await codeOf(pipeline, JSON.stringify(unsigned))).toBe("signature_missing");
    const stranger = generateIdentity("a2a://stranger");
    const fromStranger = signObject(
      createMessage({
        type: "ocp.sync.accept",
        from: "a2a://stranger",
        to: BOB,
        payload: SAMPLE_PAYLOADS["ocp.sync.accept"],
        timestamp: new Date(NOW).toISOString(),
      }),
      stranger.secretKey,
    );
    expect(await codeOf(pipeline, JSON.stringify(fromStranger))).toBe("unknown_sender");
    const forged = signObject(JSON.parse(wire("ocp.sync.accept")), stranger.secretKey);
    expect(await codeOf(pipeline, JSON.stringify(forged))).toBe("signature_invalid");
  });

  it("signature: a throwing key lookup is unknown_sender, not a throw", async () => {
    const { wire, clock } = harness();
    const pipeline = new InboundPipeline({
      now: clock.now,
      lookupKey: () => Promise.reject(new Error("directory down")),
    });
    expect(await codeOf(pipeline, wire("ocp.sync.accept"))).toBe("unknown_sender");
  });

  it("signature: unsigned messages pass only when requireSignature is false, marked unverified", async () => {
    const { pipeline: strict, wire, clock } = harness();
    const { signature: _s, ...unsigned } = JSON.parse(wire("ocp.sync.accept"));
    expect(await codeOf(strict, JSON.stringify(unsigned))).toBe("signature_missing");
    const lax = new InboundPipeline({
      lookupKey: () => undefined,
      now: clock.now,
      requireSignature: false,
    });
    const result = await lax.accept(JSON.stringify(unsigned));
    expect(result.ok && result.value.verified).toBe(false);
  });

  it("signature covers extension fields the schema does not know", async () => {
    const { pipeline, wire, alice } = harness();
    const signed = signObject(
      { ...JSON.parse(wire("ocp.sync.accept")), acme_route: "eu" },
      alice.secretKey,
    );
    expect(await codeOf(pipeline, JSON.stringify(signed))).toBe("ok");
    const { pipeline: other } = harness({ lookupKey: () => alice.publicKey });
    expect(await codeOf(other, JSON.stringify({ ...signed, acme_route: "us" }))).toBe(
      "signature_invalid",
    );
  });

  it(`freshness: accepts a timestamp up to MAX_CLOCK_SKEW_MS (${MAX_CLOCK_SKEW_MS}) ahead, refuses 1 ms more`, async () => {
    const { pipeline, wire } = harness();
    expect(
      await codeOf(
        pipeline,
        wire("ocp.sync.accept", { timestamp: new Date(NOW + MAX_CLOCK_SKEW_MS).toISOString() }),
      ),
    ).toBe("ok");
    expect(
      await codeOf(
        pipeline,
        wire("ocp.sync.accept", { timestamp: new Date(NOW + MAX_CLOCK_SKEW_MS + 1).toISOString() }),
      ),
    ).toBe("message_from_future");
  });

  it("freshness: a message expires ttl + skew after its timestamp; DEFAULT_TTL_SECONDS applies without ttl", async () => {
    const { pipeline, wire } = harness();
    const at = (ms: number) => new Date(NOW - ms).toISOString();
    expect(
      await codeOf(
        pipeline,
        wire("ocp.sync.accept", { ttl: 10, timestamp: at(10_000 + MAX_CLOCK_SKEW_MS) }),
      ),
    ).toBe("ok");
    expect(
      await codeOf(
        pipeline,
        wire("ocp.sync.accept", { ttl: 10, timestamp: at(10_000 + MAX_CLOCK_SKEW_MS + 1) }),
      ),
    ).toBe("message_expired");
    const defaultTtl = DEFAULT_TTL_SECONDS * 1000 + MAX_CLOCK_SKEW_MS;
    expect(await codeOf(pipeline, wire("ocp.sync.accept", { timestamp: at(defaultTtl) }))).toBe(
      "ok",
    );
    expect(await codeOf(pipeline, wire("ocp.sync.accept", { timestamp: at(defaultTtl + 1) }))).toBe(
      "message_expired",
    );
  });

  it("freshness: an offset timestamp is compared as the instant it names", async () => {
    const { pipeline, wire } = harness();
    expect(
      await codeOf(pipeline, wire("ocp.sync.accept", { timestamp: "2026-01-15T14:00:00+02:00" })),
    ).toBe("ok");
  });

  it("replay: a duplicate id inside the window is refused with replay_detected", async () => {
    const { pipeline, wire } = harness();
    const message = wire("ocp.sync.accept");
    expect(await codeOf(pipeline, message)).toBe("ok");
    expect(await codeOf(pipeline, message)).toBe("replay_detected");
    expect(await codeOf(pipeline, wire("ocp.sync.accept"))).toBe("ok");
  });

  it("rate limit: refuses past the bucket with rate_limited and lets the same message through later", async () => {
    const h = harness();
    const pipeline = new InboundPipeline({
      lookupKey: () => h.alice.publicKey,
      now: h.clock.now,
      rateLimiter: new RateLimiter({ messages: 2, now: h.clock.now }),
    });
    expect(await codeOf(pipeline, h.wire("ocp.sync.accept"))).toBe("ok");
    expect(await codeOf(pipeline, h.wire("ocp.sync.accept"))).toBe("ok");
    const third = h.wire("ocp.sync.accept");
    const refused = await pipeline.accept(third);
    expect(!refused.ok && refused.error.details).toMatchObject({
      bucket: "messages",
      retryAfterMs: 30_000,
    });
    h.clock.advance(30_000);
    expect(await codeOf(pipeline, third)).toBe("ok");
    expect(await codeOf(pipeline, third)).toBe("replay_detected");
  });
});

describe("inbound pipeline: order of stages", () => {
  it("size before JSON, JSON before schema, schema before signature", async () => {
    const { pipeline } = harness({ maxMessageBytes: 10 });
    expect(await codeOf(pipeline, "{not json at all}")).toBe("message_too_large");
    const { pipeline: p2 } = harness();
    expect(await codeOf(p2, "{not json")).toBe("invalid_json");
    expect(await codeOf(p2, JSON.stringify({ protocol: "a2a+ocp", type: "ocp.sync.accept" }))).toBe(
      "invalid_message",
    );
  });

  it("signature before freshness, freshness before replay", async () => {
    const { pipeline, wire, clock } = harness();
    const stranger = generateIdentity(ALICE);
    const expiredForgery = signObject(
      JSON.parse(
        wire("ocp.sync.accept", { ttl: 1, timestamp: new Date(NOW - 3_600_000).toISOString() }),
      ),
      stranger.secretKey,
    );
    expect(await codeOf(pipeline, JSON.stringify(expiredForgery))).toBe("signature_invalid");
    const message = wire("ocp.sync.accept", { ttl: 1 });
    expect(await codeOf(pipeline, message)).toBe("ok");
    clock.advance(1000 + MAX_CLOCK_SKEW_MS + 1);
    expect(await codeOf(pipeline, message)).toBe("message_expired");
  });
});

describe("inbound pipeline: concurrency", () => {
  it("of concurrent copies of one message, exactly one is accepted", async () => {
    const h = harness();
    const pipeline = new InboundPipeline({
      lookupKey: async () => h.alice.publicKey,
      now: h.clock.now,
    });
    const message = h.wire("ocp.sync.accept");
    const results = await Promise.all(Array.from({ length: 8 }, () => pipeline.accept(message)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.error.code === "replay_detected")).toHaveLength(7);
  });
});

describe("inbound pipeline: robustness", () => {
  it("property: decodeMessage gives a value or a typed error for any value", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = decodeMessage(value);
        return (
          result.ok ||
          result.error.code === "invalid_message" ||
          result.error.code === "incompatible_version"
        );
      }),
      { numRuns: 500 },
    );
  });

  const codes = new Set(Object.keys(MESSAGING_ERROR_CODES));

  it("property: arbitrary text gives a value or a typed error, never a throw", async () => {
    const { pipeline } = harness();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json()),
        async (input) => {
          const result = await pipeline.accept(input);
          return result.ok || codes.has(result.error.code);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: arbitrary bytes give a value or a typed error, never a throw", async () => {
    const { pipeline } = harness();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 256 }), async (input) => {
        const result = await pipeline.accept(input);
        return !result.ok && codes.has(result.error.code);
      }),
      { numRuns: 300 },
    );
  });

  it("property: arbitrary JSON values and mangled valid messages give a value or a typed error", async () => {
    const { pipeline, alice } = harness();
    const mangled = fc
      .tuple(plainMessage, fc.string(), fc.anything())
      .map(([message, key, value]) => {
        const signed = signObject(message, alice.secretKey) as Record<string, unknown>;
        signed[key] = value;
        return signed;
      });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.anything(), mangled), async (value) => {
        let text: string | undefined;
        try {
          text = JSON.stringify(value);
        } catch {
          return true;
        }
        if (text === undefined) return true;
        const result = await pipeline.accept(text);
        return result.ok || codes.has(result.error.code);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses out-of-range options with invalid_option", () => {
    for (const bad of [
      { maxMessageBytes: 0 },
      { maxClockSkewMs: Number.POSITIVE_INFINITY },
      { defaultTtlSeconds: -1 },
    ]) {
      expect(() => new InboundPipeline({ lookupKey: () => undefined, ...bad })).toThrow(
        /positive finite/,
      );
    }
  });
});
