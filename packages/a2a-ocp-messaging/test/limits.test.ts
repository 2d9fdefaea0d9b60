import { generateKeyPairSync, sign } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { createMessage, decodeMessage, RateLimiter } from "../src/index.js";
import {
  MAX_AGENT_URI_LENGTH,
  MAX_BATCH_ITEMS,
  MAX_ID_LENGTH,
  MAX_MESSAGE_TYPE_LENGTH,
  MAX_RECIPIENTS,
  MAX_TTL_SECONDS,
  NATIVE_KEY_CACHE_MAX_ENTRIES,
  RATE_LIMIT_MAX_SENDERS,
} from "../src/internal.js";
import { utf8Length } from "../src/json.js";
import { nativeKeyCacheSize, opensslEd25519 } from "../src/node/index.js";
import { ALICE, BOB, SAMPLE_PAYLOADS } from "./support/samples.js";

// Property tests here run hundreds of signatures or inflations: a bound per file, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

const base = () =>
  JSON.parse(
    JSON.stringify(
      createMessage({
        type: "ocp.sync.accept",
        from: ALICE,
        to: BOB,
        payload: SAMPLE_PAYLOADS["ocp.sync.accept"],
      }),
    ),
  );
const accepts = (value: unknown) => decodeMessage(value).ok;
const uri = (length: number) => `a2a://${"a".repeat(length - "a2a://".length)}`;

describe("limits, each at its edge", () => {
  it(`MAX_RECIPIENTS (${MAX_RECIPIENTS}) in a to list`, () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `a2a://agent-${i}`);
    expect(accepts({ ...base(), to: list(MAX_RECIPIENTS) })).toBe(true);
    expect(accepts({ ...base(), to: list(MAX_RECIPIENTS + 1) })).toBe(false);
  });

  it(`MAX_AGENT_URI_LENGTH (${MAX_AGENT_URI_LENGTH})`, () => {
    expect(accepts({ ...base(), from: uri(MAX_AGENT_URI_LENGTH) })).toBe(true);
    expect(accepts({ ...base(), from: uri(MAX_AGENT_URI_LENGTH + 1) })).toBe(false);
  });

  it(`MAX_ID_LENGTH (${MAX_ID_LENGTH}) for correlation_id and payload ids`, () => {
    expect(accepts({ ...base(), correlation_id: "c".repeat(MAX_ID_LENGTH) })).toBe(true);
    expect(accepts({ ...base(), correlation_id: "c".repeat(MAX_ID_LENGTH + 1) })).toBe(false);
    expect(
      accepts({ ...base(), payload: { syncId: "s".repeat(MAX_ID_LENGTH + 1), accepted: true } }),
    ).toBe(false);
  });

  it(`MAX_MESSAGE_TYPE_LENGTH (${MAX_MESSAGE_TYPE_LENGTH}) for custom types`, () => {
    const type = (n: number) => `ocp.custom.${"x".repeat(n - "ocp.custom.".length)}`;
    expect(accepts({ ...base(), type: type(MAX_MESSAGE_TYPE_LENGTH), payload: {} })).toBe(true);
    expect(accepts({ ...base(), type: type(MAX_MESSAGE_TYPE_LENGTH + 1), payload: {} })).toBe(
      false,
    );
  });

  it(`MAX_TTL_SECONDS (${MAX_TTL_SECONDS})`, () => {
    expect(accepts({ ...base(), ttl: MAX_TTL_SECONDS })).toBe(true);
    expect(accepts({ ...base(), ttl: MAX_TTL_SECONDS + 1 })).toBe(false);
  });

  it(`MAX_BATCH_ITEMS (${MAX_BATCH_ITEMS}) streams in a §12.1 batch`, () => {
    const item = { ...SAMPLE_PAYLOADS["ocp.knowledge.stream"], nodes: [] };
    const batch = (n: number) => ({
      ...base(),
      type: "ocp.knowledge.stream",
      payload: { batched: true, items: Array.from({ length: n }, () => item) },
    });
    expect(accepts(batch(MAX_BATCH_ITEMS))).toBe(true);
    expect(accepts(batch(MAX_BATCH_ITEMS + 1))).toBe(false);
  });

  it(`RATE_LIMIT_MAX_SENDERS (${RATE_LIMIT_MAX_SENDERS}) is the default bound on tracked senders`, () => {
    const limiter = new RateLimiter({ now: () => 0 });
    expect(limiter.maxSenders).toBe(RATE_LIMIT_MAX_SENDERS);
    for (let i = 0; i <= RATE_LIMIT_MAX_SENDERS; i++)
      limiter.take(`a2a://s-${i}`, { type: "ocp.sync.accept", to: BOB });
    expect(limiter.senderCount).toBe(RATE_LIMIT_MAX_SENDERS);
  });

  it(`NATIVE_KEY_CACHE_MAX_ENTRIES (${NATIVE_KEY_CACHE_MAX_ENTRIES}) bounds the OpenSSL backend's key cache; verification stays right past it`, () => {
    const message = new Uint8Array([1, 2, 3]);
    let last: { publicKey: Uint8Array; signature: Uint8Array } | undefined;
    for (let i = 0; i < NATIVE_KEY_CACHE_MAX_ENTRIES + 5; i++) {
      const { publicKey, privateKey } = generateKeyPairSync("ed25519");
      const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(12));
      const signature = new Uint8Array(sign(null, message, privateKey));
      expect(opensslEd25519.verify(signature, message, raw)).toBe(true);
      last = { publicKey: raw, signature };
    }
    expect(nativeKeyCacheSize()).toBe(NATIVE_KEY_CACHE_MAX_ENTRIES);
    expect(opensslEd25519.verify(last!.signature, new Uint8Array([9]), last!.publicKey)).toBe(
      false,
    );
  });

  it("property: utf8Length agrees with Buffer.byteLength for well-formed text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }),
        (text) => utf8Length(text) === Buffer.byteLength(text),
      ),
    );
  });
});
