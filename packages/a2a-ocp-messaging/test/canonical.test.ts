import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalizeSlow, canonicalizeWithout, inCanonicalOrder } from "../src/canonical.js";
import { canonicalize, isOcpError } from "../src/index.js";
import { MAX_JSON_DEPTH } from "../src/internal.js";

describe("RFC 8785 canonical JSON", () => {
  it("RFC 8785 §3.2.2: serializes the primitives example", () => {
    const input =
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
      ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
      ' "literals": [null, true, false]}';
    expect(canonicalize(JSON.parse(input))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("RFC 8785 §3.2.3: sorts member names by UTF-16 code units", () => {
    const input =
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",' +
      ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",' +
      ' "\\u00f6": "Latin Small Letter O With Diaeresis"}';
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control",' +
      '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
      '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    expect(canonicalize(JSON.parse(input))).toBe(expected);
  });

  it.each([
    [0x0000000000000000n, "0"],
    [0x8000000000000000n, "0"],
    [0x0000000000000001n, "5e-324"],
    [0x8000000000000001n, "-5e-324"],
    [0x7fefffffffffffffn, "1.7976931348623157e+308"],
    [0xffefffffffffffffn, "-1.7976931348623157e+308"],
    [0x4340000000000000n, "9007199254740992"],
    [0xc340000000000000n, "-9007199254740992"],
    [0x4430000000000000n, "295147905179352830000"],
    [0x44b52d02c7e14af5n, "9.999999999999997e+22"],
    [0x44b52d02c7e14af6n, "1e+23"],
    [0x44b52d02c7e14af7n, "1.0000000000000001e+23"],
    [0x444b1ae4d6e2ef4en, "999999999999999700000"],
    [0x444b1ae4d6e2ef4fn, "999999999999999900000"],
    [0x444b1ae4d6e2ef50n, "1e+21"],
    [0x3eb0c6f7a0b5ed8cn, "9.999999999999997e-7"],
    [0x3eb0c6f7a0b5ed8dn, "0.000001"],
    [0x41b3de4355555553n, "333333333.3333332"],
    [0x41b3de4355555554n, "333333333.33333325"],
    [0x41b3de4355555555n, "333333333.3333333"],
    [0x41b3de4355555556n, "333333333.3333334"],
    [0x41b3de4355555557n, "333333333.33333343"],
    [0xbecbf647612f3696n, "-0.0000033333333333333333"],
    [0x43143ff3c1cb0959n, "1424953923781206.2"],
  ])("RFC 8785 Appendix B: IEEE 754 %s serializes as %s", (bits, expected) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, bits);
    expect(canonicalize(view.getFloat64(0))).toBe(expected);
  });

  it("RFC 8785 Appendix B: NaN and Infinity have no canonical form", () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => canonicalize({ value })).toThrow(/no JSON form/);
    }
  });

  it("refuses lone surrogates (not I-JSON) in values and member names", () => {
    expect(() => canonicalize({ a: "\ud800" })).toThrow(/lone surrogate/);
    expect(() => canonicalize({ "\udc00": 1 })).toThrow(/lone surrogate/);
    expect(canonicalize({ a: "\ud83d\ude00" })).toBe('{"a":"😀"}');
  });

  it("refuses non-JSON values rather than dropping them, but omits undefined members", () => {
    for (const value of [() => 1, Symbol("s"), 1n, [undefined]]) {
      try {
        canonicalize(value);
        expect.unreachable();
      } catch (error) {
        expect(isOcpError(error, "canonicalization_failed")).toBe(true);
      }
    }
    expect(canonicalize({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it(`refuses nesting deeper than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) with a typed error`, () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = [deep];
    expect(canonicalize(deep)).toMatch(/^\[+1\]+$/);
    expect(() => canonicalize([deep])).toThrow(/deeper/);
  });

  it("has no whitespace and keeps arrays in order", () => {
    expect(canonicalize({ b: [3, 1, 2], a: { d: null, c: "x" } })).toBe(
      '{"a":{"c":"x","d":null},"b":[3,1,2]}',
    );
  });

  it("the fast path (one native JSON.stringify of a sorted copy) writes exactly what the member-by-member writer writes", () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom("10", "9", "0", "01", "-1", "1e3", "é", "\u{1F600}"),
    );
    const value = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.string({ unit: "grapheme" }),
        fc.string({ unit: "binary" }),
        fc.array(tie("json"), { maxLength: 4 }),
        fc.dictionary(key, tie("json"), { maxKeys: 5 }),
      ),
    })).json;
    fc.assert(
      fc.property(value, (v) => {
        let fast: string | Error;
        let slow: string | Error;
        try {
          fast = canonicalize(v);
        } catch (error) {
          fast = error as Error;
        }
        try {
          slow = canonicalizeSlow(v);
        } catch (error) {
          slow = error as Error;
        }
        if (typeof slow === "string") expect(fast).toBe(slow);
        else {
          expect((slow as { code?: string }).code).toBe("canonicalization_failed");
          expect(typeof fast).not.toBe("string");
          expect((fast as { code?: string }).code).toBe("canonicalization_failed");
        }
      }),
      { numRuns: 2000 },
    );
    // The same values through the omitting writer and the reordering copy that signing uses.
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), key, (record, omit) => {
        let expected: string | undefined;
        try {
          const { [omit]: _gone, ...rest } = record;
          expected = canonicalizeSlow(rest);
        } catch {
          expect(() => canonicalizeWithout(record, omit)).toThrow(/./);
          return;
        }
        expect(canonicalizeWithout(record, omit)).toBe(expected);
        const ordered = inCanonicalOrder(record);
        expect(canonicalize(ordered)).toBe(canonicalizeSlow(record));
        expect(JSON.parse(JSON.stringify(ordered))).toEqual(JSON.parse(JSON.stringify(record)));
      }),
      { numRuns: 1000 },
    );
  });

  it("a member named __proto__ (an own property after JSON.parse) is kept, in order, and signed", () => {
    const value = JSON.parse('{"z":1,"__proto__":{"x":2},"a":[{"__proto__":3,"b":4}]}');
    const expected = '{"__proto__":{"x":2},"a":[{"__proto__":3,"b":4}],"z":1}';
    expect(canonicalize(value)).toBe(expected);
    expect(canonicalizeSlow(value)).toBe(expected);
    expect(JSON.stringify(inCanonicalOrder(value))).toBe(expected);
    expect(canonicalizeWithout(value, "z")).toBe(
      '{"__proto__":{"x":2},"a":[{"__proto__":3,"b":4}]}',
    );
  });

  it("inCanonicalOrder puts members in JCS order so the plain JSON of the copy is canonical", () => {
    const value = { z: 1, a: { y: [{ c: 2, b: 1 }], x: "s" }, m: undefined };
    const ordered = inCanonicalOrder(value);
    expect(JSON.stringify(ordered)).toBe('{"a":{"x":"s","y":[{"b":1,"c":2}]},"z":1}');
    expect(JSON.stringify(ordered)).toBe(canonicalize(value));
    // Already canonical: the very same object back, nothing copied.
    expect(inCanonicalOrder(ordered)).toBe(ordered);
    expect(() => inCanonicalOrder({ n: Number.NaN })).toThrow(/no JSON form/);
  });
});
