import { describe, expect, it } from "vitest";
import {
  CGP_RULES,
  cgpAsOfViolations,
  cgpKindViolations,
  compareCgpTimestamps,
} from "../src/cgp/index.js";

describe("compareCgpTimestamps: instants, not spellings", () => {
  it("orders by instant; trailing fraction zeros do not matter", () => {
    expect(compareCgpTimestamps("2026-01-01T00:00:00Z", "2026-01-01T00:00:00.000Z")).toBe(0);
    expect(compareCgpTimestamps("2026-01-01T00:00:00Z", "2026-01-01T00:00:00.5Z")).toBe(-1);
    expect(compareCgpTimestamps("2026-01-01T00:00:00.25Z", "2026-01-01T00:00:00.3Z")).toBe(-1);
    expect(compareCgpTimestamps("2026-01-01T00:00:01Z", "2026-01-01T00:00:00.999Z")).toBe(1);
    expect(compareCgpTimestamps("2016-12-31T23:59:60Z", "2016-12-31T23:59:59.9Z")).toBe(1);
  });
  it("is undefined when either side is outside the F4 profile", () => {
    expect(compareCgpTimestamps("yesterday", "2026-01-01T00:00:00Z")).toBeUndefined();
    expect(
      compareCgpTimestamps("2026-01-01T00:00:00Z", "2026-01-01T00:00:00+00:00"),
    ).toBeUndefined();
  });
});

const frame = (id: string, valid_from?: string, kind = "doc") => ({ id, kind, valid_from });

describe("cgpAsOfViolations (X-ASOF, upstream's as-of-temporal)", () => {
  const pin = { as_of: "2026-07-01T00:00:00Z" };
  it("a frame dated after the pin is reported; at or before the pin, or undated, is not", () => {
    const v = cgpAsOfViolations(pin, [
      frame("before", "2026-06-30T23:59:59Z"),
      frame("at", "2026-07-01T00:00:00.000Z"),
      frame("undated"),
      frame("after", "2026-07-01T00:00:00.001Z"),
    ]);
    expect(v.map((x) => [x.rule, x.frameId])).toEqual([["X-ASOF", "after"]]);
  });
  it("no pin, no judgement; a malformed valid_from is F4's to report, not this rule's", () => {
    expect(cgpAsOfViolations({}, [frame("after", "2099-01-01T00:00:00Z")])).toEqual([]);
    expect(cgpAsOfViolations(pin, [frame("bad", "someday")])).toEqual([]);
  });
  it("is in the rule table as an extension the host drops on and the suite fails", () => {
    expect(CGP_RULES.find((r) => r.id === "X-ASOF")).toMatchObject({
      source: "extension",
      host: "drop",
      check: "as-of-temporal",
      suite: "fail",
    });
  });
});

describe("cgpKindViolations (K1, upstream's kinds-filter)", () => {
  it("reports each frame of a kind not asked for; empty kinds means any kind", () => {
    const frames = [
      frame("d", undefined, "doc"),
      frame("s", undefined, "snippet"),
      frame("h", undefined, "hologram"),
    ];
    expect(cgpKindViolations({ kinds: ["doc"] }, frames).map((v) => v.frameId)).toEqual(["s", "h"]);
    expect(cgpKindViolations({ kinds: [] }, frames)).toEqual([]);
    expect(cgpKindViolations({}, frames)).toEqual([]);
  });
});
