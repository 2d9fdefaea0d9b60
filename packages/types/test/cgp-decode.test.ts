import { describe, expect, it } from "vitest";
import {
  CgpStrictEnvelopeSchema,
  cgpErrorCode,
  decodeCgpEnvelope,
  decodeCgpLine,
  encodeCgpLine,
  isOpaqueFrame,
  isUnknownEnvelope,
} from "../src/cgp/index.js";

const X = { future_field: true, nested_future: { a: 1 } };

const ack = {
  type: "handshake_ack",
  protocol_version: "contextgraph/1.0-draft",
  provider: {
    name: "docs",
    version: "1.0.0",
    data_flow: { reads: true, writes: false, egress: true, egress_scopes: ["acme:vault"], ...X },
    ...X,
  },
  capabilities: { query: { kinds: ["doc"], ...X }, verify: true, ...X },
  ...X,
};

const frame = {
  id: "f1",
  kind: "doc",
  title: "Retry",
  content: "retry",
  score: 0.5,
  token_cost: 2,
  citation_label: "retry.md",
  provenance: [{ type: "file", digest: `sha256:${"a".repeat(64)}`, ...X }],
  relations: [{ rel: "acme:owns", target_uri: "x://y", display_name: "y", ...X }],
  embedding: { fingerprint: "m/3", vector: [1, 2, 3], ...X },
  ...X,
};

const frames = {
  type: "frames",
  id: "q1",
  result: {
    frames: [
      frame,
      {
        ...frame,
        id: "f2",
        representation: "compact",
        content_digest: `sha256:${"b".repeat(64)}`,
        canonical_content_hash: `sha256:${"c".repeat(64)}`,
        content_ref: { provider_id: "docs", uri: "context://docs/1", ...X },
        transform: { method: "m", implementation: "i", version: "1", ...X },
      },
    ],
    truncated: false,
    ...X,
  },
  ...X,
};

const verified = {
  type: "verified",
  response: {
    verdicts: [
      {
        frame: { provider_id: "docs", frame_id: "f1", content_digest: "d", ...X },
        status: "valid",
        ...X,
      },
    ],
    ...X,
  },
  ...X,
};

function hasKey(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((member) => hasKey(member, key));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([k, v]) => k === key || hasKey(v, key));
  }
  return false;
}

describe("decodeCgpEnvelope: the interop path (U1–U4)", () => {
  for (const message of [ack, frames, verified]) {
    it(`U1: unknown members in every nested object of ${message.type} are ignored, not rejected`, () => {
      const decoded = decodeCgpEnvelope(message);
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) return;
      expect(hasKey(decoded.envelope, "future_field")).toBe(false);
      expect(hasKey(decoded.envelope, "nested_future")).toBe(false);
      // the authoring level rejects the very same message
      expect(CgpStrictEnvelopeSchema.safeParse(message).success).toBe(false);
    });
  }

  it("U2: a frame of an unknown kind decodes as opaque evidence, never a throw", () => {
    const decoded = decodeCgpEnvelope({
      ...frames,
      result: { frames: [{ ...frame, kind: "hologram" }], truncated: false },
    });
    expect(decoded.ok).toBe(true);
    if (!decoded.ok || decoded.envelope.type !== "frames") throw new Error("not frames");
    const [only] = decoded.envelope.result.frames;
    expect(only?.kind).toBe("hologram");
    expect(isOpaqueFrame(only!)).toBe(true);
    expect(isOpaqueFrame({ kind: "doc" })).toBe(false);
  });

  it("U2: open vocabularies — unknown rel, error code, egress scope and query kind decode", () => {
    const error = decodeCgpEnvelope({ type: "error", code: "acme:quota", message: "slow down" });
    expect(error.ok && error.envelope.type === "error" && cgpErrorCode(error.envelope.code)).toBe(
      "internal",
    );
    const flow = decodeCgpEnvelope({
      ...ack,
      provider: {
        ...ack.provider,
        data_flow: { reads: true, writes: false, egress: true, egress_scopes: ["moon-base"] },
      },
    });
    expect(flow.ok).toBe(true);
    const query = decodeCgpEnvelope({
      type: "query",
      query: { goal: "g", kinds: ["hologram"], max_frames: 1, max_tokens: 1 },
    });
    expect(query.ok).toBe(true);
  });

  it("§2.1: an unknown envelope type decodes as unknown (id and payload noted) so a provider can answer bad_request", () => {
    const request = decodeCgpLine('{"type":"resolve","id":"r1","ref":{"uri":"x"}}');
    expect(request).toEqual({
      ok: true,
      envelope: { type: "unknown", wire_type: "resolve", id: "r1", has_payload: true },
    });
    const notification = decodeCgpLine('{"type":"invalidated"}');
    expect(notification.ok && isUnknownEnvelope(notification.envelope)).toBe(true);
    expect(notification.ok && notification.envelope).toMatchObject({ has_payload: false });
  });

  it("R1: garbage is a typed failure naming the reason, never a throw", () => {
    expect(decodeCgpLine("not json")).toMatchObject({ ok: false, reason: "invalid_json" });
    expect(decodeCgpLine('{"type":"query","type":"shutdown"}')).toMatchObject({
      ok: false,
      reason: "invalid_json",
    });
    expect(decodeCgpLine('{"type":"shutdown"}\n{"type":"shutdown"}')).toMatchObject({
      ok: false,
      reason: "embedded_newline",
    });
    expect(decodeCgpLine("[1,2]")).toMatchObject({ ok: false, reason: "invalid_envelope" });
    expect(decodeCgpLine('{"kind":"query"}')).toMatchObject({
      ok: false,
      reason: "invalid_envelope",
    });
    const bad = decodeCgpLine(
      '{"type":"query","query":{"goal":"g","max_frames":-1,"max_tokens":1.5}}',
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/query\.max_frames/);
  });

  it("a frame breaking frame rules still decodes, so the receiver can name the rule", () => {
    const decoded = decodeCgpEnvelope({
      ...frames,
      result: {
        frames: [{ ...frame, score: 7, title: "", valid_from: "yesterday" }],
        truncated: false,
      },
    });
    expect(decoded.ok).toBe(true);
  });

  it("encodeCgpLine writes one line, omits representation full and absent members, and decodes back", () => {
    const line = encodeCgpLine({
      ...frames,
      result: { frames: [{ ...frame, representation: "full", uri: null }], truncated: false },
    });
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toContain("\n");
    expect(line).not.toContain("representation");
    expect(line).not.toContain("null");
    expect(line).not.toContain("future_field");
    expect(decodeCgpLine(line).ok).toBe(true);
    expect(() => encodeCgpLine({ type: "frames" })).toThrow(TypeError);
  });
});

describe("decodeCgpEnvelope against a hostile or sloppy peer", () => {
  it("null reads as absent for optional members (a Rust Option peer may write either)", () => {
    const decoded = decodeCgpEnvelope({
      ...frames,
      result: {
        frames: [
          {
            ...frame,
            content: null,
            representation: null,
            transform: null,
            canonical_token_cost: null,
          },
        ],
        truncated: false,
      },
    });
    expect(decoded.ok).toBe(true);
    if (!decoded.ok || decoded.envelope.type !== "frames") throw new Error("not frames");
    const [only] = decoded.envelope.result.frames;
    expect(only?.content).toBeUndefined();
    expect(only?.representation).toBeUndefined();
  });

  it("a __proto__ member pollutes nothing and is dropped like any unknown member", () => {
    const line = `{"type":"frames","result":{"frames":[${JSON.stringify(frame).slice(0, -1)},"__proto__":{"polluted":true}}],"truncated":false},"__proto__":{"polluted":true}}`;
    const decoded = decodeCgpLine(line);
    expect(decoded.ok).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(decoded.ok && hasKey(decoded.envelope, "polluted")).toBe(false);
  });

  it("envelope types named like Object.prototype members are unknown, not a crash", () => {
    for (const type of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const decoded = decodeCgpEnvelope(JSON.parse(`{"type":${JSON.stringify(type)}}`));
      expect(decoded, type).toMatchObject({
        ok: true,
        envelope: { type: "unknown", wire_type: type },
      });
    }
  });

  it("forged sizes and ids are refused with the path named: a u32 past 2^32 - 1, a fractional cost, an id past the bound", () => {
    const over = decodeCgpEnvelope({
      ...frames,
      result: { frames: [{ ...frame, token_cost: 2 ** 32 }], truncated: false },
    });
    expect(over.ok || over.error).toMatch(/token_cost/);
    const fraction = decodeCgpEnvelope({
      type: "query",
      query: { goal: "g", max_frames: 1, max_tokens: 0.5 },
    });
    expect(fraction.ok || fraction.error).toMatch(/max_tokens/);
    const forged = decodeCgpEnvelope({ type: "error", id: "x".repeat(129), message: "m" });
    expect(forged.ok).toBe(false);
    const unknownWithBadId = decodeCgpEnvelope({ type: "ping", id: 7 });
    expect(unknownWithBadId).toMatchObject({
      ok: true,
      envelope: { type: "unknown", has_payload: false },
    });
    expect(unknownWithBadId.ok && "id" in unknownWithBadId.envelope).toBe(false);
  });
});
