import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeLine } from "../src/index.js";
import { parseJsonText, scanJsonText } from "../src/internal.js";

describe("I-JSON: duplicate member names (RFC 7493 §2.3)", () => {
  it("finds a duplicate at the top level, nested, and inside arrays, with its path", () => {
    expect(scanJsonText('{"from":"a","from":"b"}')).toEqual({
      kind: "duplicate_key",
      key: "from",
      path: "from",
    });
    expect(scanJsonText('{"a":{"b":1,"c":2,"b":3}}')).toMatchObject({ key: "b", path: "a.b" });
    expect(scanJsonText('{"a":[{"x":1},{"y":1,"y":2}]}')).toMatchObject({
      key: "y",
      path: "a.[].y",
    });
  });

  it("compares decoded names: an escaped spelling of a name is the same name", () => {
    expect(scanJsonText('{"from":"a","\\u0066rom":"b"}')).toMatchObject({ key: "from" });
    expect(scanJsonText('{"a\\"b":1,"a\\u0022b":2}')).toMatchObject({ key: 'a"b' });
  });

  it("does not confuse string contents, equal names in sibling objects, or values with names", () => {
    expect(scanJsonText('{"a":"{\\"a\\":1,\\"a\\":2}","b":"\\\\"}')).toBeUndefined();
    expect(scanJsonText('[{"a":1},{"a":2}]')).toBeUndefined();
    expect(scanJsonText('{"a":"a","b":{"a":"b"}}')).toBeUndefined();
    expect(scanJsonText('{"a":["a","a"],"b":"a"}')).toBeUndefined();
    expect(scanJsonText('"x"')).toBeUndefined();
  });

  it("reports nesting beyond maxDepth (the outermost container is depth 1)", () => {
    expect(scanJsonText("[[1]]", 2)).toBeUndefined();
    expect(scanJsonText("[[[1]]]", 2)).toEqual({ kind: "too_deep", maxDepth: 2 });
    expect(scanJsonText('{"a":{"b":{}}}', 2)).toEqual({ kind: "too_deep", maxDepth: 2 });
  });

  it("never reports a duplicate for JSON.stringify output, and always finds one spliced in", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { minKeys: 1, maxKeys: 8 }),
        (object) => {
          const text = JSON.stringify(object);
          expect(scanJsonText(text)).toBeUndefined();
          const first = Object.keys(object)[0]!;
          const spliced = `{${JSON.stringify(first)}:null,${text.slice(1)}`;
          expect(scanJsonText(spliced)).toMatchObject({ kind: "duplicate_key", key: first });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("parseJsonText and decodeLine refuse duplicates as invalid_json naming the member", () => {
    const parsed = parseJsonText('{"type":"handshake","type":"query"}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe("invalid_json");
      expect(parsed.error.message).toContain('duplicate member name "type"');
      expect(parsed.error.details).toMatchObject({ duplicateKey: "type", path: "type" });
    }
    const decoded = decodeLine('{"type":"handshake","protocol_version":"1.0","type":"x"}\n');
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.code).toBe("invalid_json");
    expect(parseJsonText("{not json").ok).toBe(false);
    expect(parseJsonText('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });
});
