import { describe, expect, it } from "vitest";
import {
  decodeEnvelope,
  decodeLine,
  encodeJson,
  encodeLine,
  OcpError,
  readWireErrorCode,
  toWire,
} from "../src/index.js";
import { MAX_CORRELATION_ID_LENGTH, U32_MAX } from "../src/internal.js";

const query = { goal: "g", max_frames: 1, max_tokens: 10 };

describe("encodeLine", () => {
  it("writes exactly one line, ending in a newline, even when content holds newlines", () => {
    const line = encodeLine({
      type: "frames",
      result: {
        truncated: false,
        frames: [
          {
            id: "a",
            kind: "doc",
            title: "t",
            content: "one\ntwo\r\nthree",
            score: 0.5,
            token_cost: 3,
          },
        ],
      },
    });
    expect(line.endsWith("\n")).toBe(true);
    expect(line.indexOf("\n")).toBe(line.length - 1);
  });

  it("omits absent optionals and empty kinds, anchors, provenance and relations, never writing null", () => {
    const wire = encodeJson({
      type: "query",
      query: { ...query, kinds: [], anchors: [], query_text: null, as_of: undefined },
    });
    expect(wire).toBe('{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":10}}');
    const frames = encodeJson({
      type: "frames",
      result: {
        truncated: true,
        dropped_estimate: null,
        frames: [
          {
            id: "a",
            kind: "doc",
            title: "t",
            content: "c",
            score: 1,
            token_cost: 0,
            provenance: [],
            relations: [],
            uri: null,
          },
        ],
      },
    });
    expect(frames).toBe(
      '{"type":"frames","result":{"frames":[{"id":"a","kind":"doc","title":"t","content":"c","score":1,"token_cost":0}],"truncated":true}}',
    );
  });

  it("writes fields in the reference's declaration order, whatever order they were given in", () => {
    const wire = encodeJson({
      type: "frames",
      result: {
        truncated: false,
        frames: [
          {
            token_cost: 1,
            score: 0.1,
            content: "c",
            title: "t",
            kind: "fact",
            id: "x",
            citation_label: "L",
          },
        ],
      },
    });
    expect(wire).toBe(
      '{"type":"frames","result":{"frames":[{"id":"x","kind":"fact","title":"t","content":"c","score":0.1,"token_cost":1,"citation_label":"L"}],"truncated":false}}',
    );
  });

  it('writes Provenance.kind as "type", as the reference does', () => {
    const wire = toWire({
      type: "frames",
      result: {
        truncated: false,
        frames: [
          {
            id: "x",
            kind: "doc",
            title: "t",
            content: "c",
            score: 0,
            token_cost: 0,
            provenance: [{ type: "file", uri: "file:///a" }],
          },
        ],
      },
    });
    expect(JSON.stringify(wire)).toContain('"provenance":[{"type":"file","uri":"file:///a"}]');
  });

  it("defaults DataFlow booleans and Capabilities fields that are missing", () => {
    const decoded = decodeEnvelope({
      type: "handshake_ack",
      protocol_version: "ocp/1.0-draft",
      provider: { name: "p", version: "1", data_flow: {} },
      capabilities: {},
    });
    expect(decoded.ok).toBe(true);
    if (!decoded.ok || decoded.value.type !== "handshake_ack") return;
    expect(decoded.value.provider.data_flow).toEqual({
      reads: false,
      writes: false,
      egress: false,
    });
    expect(decoded.value.capabilities).toEqual({
      query: { kinds: [], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
    });
  });

  it("refuses to encode an invalid value with a typed invalid_value error", () => {
    expect(() => encodeLine({ type: "query", query: { ...query, max_tokens: -1 } })).toThrow(
      OcpError,
    );
    try {
      encodeLine({ type: "query", query: { ...query, max_tokens: 1.5 } });
    } catch (error) {
      expect((error as OcpError).code).toBe("invalid_value");
    }
  });
});

describe("decodeLine", () => {
  it("accepts a trailing \\n or \\r\\n", () => {
    expect(decodeLine('{"type":"shutdown"}\n').ok).toBe(true);
    expect(decodeLine('{"type":"shutdown"}\r\n').ok).toBe(true);
  });

  it("a garbage line is invalid_json, not a throw", () => {
    const result = decodeLine("this is not json {{{");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBeInstanceOf(OcpError);
      expect(result.error.code).toBe("invalid_json");
    }
  });

  it("two messages on one line are embedded_newline", () => {
    const result = decodeLine('{"type":"shutdown"}\n{"type":"shutdown"}\n');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("embedded_newline");
  });

  it("JSON that is not an envelope is invalid_envelope, naming the path of the problem", () => {
    const result = decodeLine(
      '{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":"ten"}}',
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_envelope");
      expect(result.error.message).toContain("query.max_tokens");
    }
    const unknown = decodeLine('{"type":"teleport"}');
    expect(unknown.ok).toBe(false);
    for (const text of ["null", "[]", '"frames"', "42"]) expect(decodeLine(text).ok).toBe(false);
  });

  it("a type member whose toString is not a function is named as JSON, not a throw", () => {
    const result = decodeLine('{"type":[{"toString":""}],"protocol_version":"ocp/1.0-draft"}');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_envelope");
      expect(result.error.message).toContain('[{"toString":""}]');
    }
    const object = decodeEnvelope({ type: { valueOf: 1, toString: "x" } });
    expect(object.ok).toBe(false);
  });

  it("tolerates unknown fields on input and drops them", () => {
    const result = decodeLine(
      '{"type":"handshake","protocol_version":"ocp/1.0-draft","future":{"x":1}}',
    );
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(result.value).toEqual({ type: "handshake", protocol_version: "ocp/1.0-draft" });
  });

  it("reads null as absent for every optional", () => {
    const result = decodeEnvelope({
      type: "query",
      query: { ...query, query_text: null, embedding: null, as_of: null },
    });
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(encodeJson(result.value)).toBe(
        '{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":10}}',
      );
  });
});

describe("u32 fields", () => {
  const withBudget = (max_tokens: unknown) =>
    decodeEnvelope({ type: "query", query: { ...query, max_tokens } });
  const withCost = (token_cost: unknown) =>
    decodeEnvelope({
      type: "frames",
      result: {
        truncated: false,
        frames: [{ id: "a", kind: "doc", title: "t", content: "c", score: 0, token_cost }],
      },
    });
  const withDropped = (dropped_estimate: unknown) =>
    decodeEnvelope({ type: "frames", result: { truncated: true, frames: [], dropped_estimate } });
  const withFrames = (max_frames: unknown) =>
    decodeEnvelope({ type: "query", query: { ...query, max_frames } });

  it.each([
    ["max_tokens", withBudget],
    ["max_frames", withFrames],
    ["token_cost", withCost],
    ["dropped_estimate", withDropped],
  ] as const)("%s accepts 0 and 2^32 - 1 and rejects -1, 0.5 and 2^32", (_name, decode) => {
    expect(decode(0).ok).toBe(true);
    expect(decode(U32_MAX).ok).toBe(true);
    expect(decode(-1).ok).toBe(false);
    expect(decode(0.5).ok).toBe(false);
    expect(decode(U32_MAX + 1).ok).toBe(false);
  });
});

describe("extensions", () => {
  it("carries a correlation id on query, frames and error, bounded in length", () => {
    const id = "q".repeat(MAX_CORRELATION_ID_LENGTH);
    expect(decodeEnvelope({ type: "query", id, query }).ok).toBe(true);
    expect(
      decodeEnvelope({ type: "frames", id, result: { frames: [], truncated: false } }).ok,
    ).toBe(true);
    expect(decodeEnvelope({ type: "error", id, message: "m" }).ok).toBe(true);
    expect(decodeEnvelope({ type: "query", id: `${id}q`, query }).ok).toBe(false);
    expect(decodeEnvelope({ type: "query", id: "", query }).ok).toBe(false);
  });

  it("never writes an id that was not given, so a plain ocp/1.0-draft peer never sees one", () => {
    expect(encodeJson({ type: "query", query })).not.toContain('"id"');
  });

  it("reads an unknown or absent error code as internal", () => {
    expect(readWireErrorCode("unsupported_kind")).toBe("unsupported_kind");
    expect(readWireErrorCode("made_up")).toBe("internal");
    expect(readWireErrorCode(undefined)).toBe("internal");
    expect(readWireErrorCode(7)).toBe("internal");
    const decoded = decodeEnvelope({ type: "error", code: "made_up", message: "m" });
    expect(
      decoded.ok && decoded.value.type === "error" && readWireErrorCode(decoded.value.code),
    ).toBe("internal");
  });
});
