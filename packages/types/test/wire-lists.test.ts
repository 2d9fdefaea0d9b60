import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { encodeLine, toWire } from "../src/codec.js";
import type * as EnvelopeModule from "../src/envelope.js";
import { wireWriter } from "../src/fast/index.js";
import { ContextFrameSchema } from "../src/frame.js";
import { ContextQueryResultSchema } from "../src/query.js";
import {
  isOmittedWhenEmpty,
  omittedListNames,
  omittedListsByType,
  omittedWhenEmpty,
} from "../src/wire-lists.js";

// A frame schema with two new lists: `tags` marked where it is defined, `notes` defaulted but
// not marked. The envelope the codec encodes with is replaced, for this file, by one whose
// `frames` variant carries it: what adding the member to ContextFrameSchema would do, and the
// only edit made. `toWire` and the fast writer must both follow the mark.
const fixture = vi.hoisted(() => {
  const holder: { framesEnvelope?: z.ZodType } = {};
  return holder;
});

vi.mock("../src/envelope.js", async (importOriginal) => {
  const actual = await importOriginal<typeof EnvelopeModule>();
  const { z: zod } = await import("zod");
  const { ContextFrameSchema: Frame } = await import("../src/frame.js");
  const { ContextQueryResultSchema: Result } = await import("../src/query.js");
  const { omittedWhenEmpty: mark } = await import("../src/wire-lists.js");
  const TaggedFrame = Frame.extend({
    tags: mark(zod.array(zod.string()).default([])),
    notes: zod.array(zod.string()).default([]),
  });
  const Frames = actual.FramesEnvelopeSchema.extend({
    result: Result.extend({ frames: zod.array(TaggedFrame) }),
  });
  fixture.framesEnvelope = Frames;
  const EnvelopeSchema = zod.discriminatedUnion("type", [
    actual.HandshakeSchema,
    actual.HandshakeAckSchema,
    actual.QueryEnvelopeSchema,
    Frames,
    actual.ShutdownSchema,
    actual.ErrorEnvelopeSchema,
  ]);
  return { ...actual, EnvelopeSchema };
});

const frame = {
  id: "f1",
  kind: "doc",
  title: "T",
  content: "c",
  score: 0.5,
  token_cost: 3,
} as const;

/** The frames of a `frames` envelope as `toWire` wrote them. */
const wireFrames = (wire: unknown) =>
  z.object({ result: z.object({ frames: z.array(z.record(z.string(), z.unknown())) }) }).parse(wire)
    .result.frames;

describe("the lists left off the wire when empty are read from the schemas", () => {
  it("derives today's lists: kinds and anchors of a query, provenance and relations of a frame", async () => {
    const actual = await vi.importActual<typeof EnvelopeModule>("../src/envelope.js");
    const today = { query: ["kinds", "anchors"], frames: ["provenance", "relations"] };
    for (const schema of [actual.EnvelopeSchema, actual.StrictEnvelopeSchema]) {
      const derived = omittedListsByType(schema);
      expect(Object.keys(derived).sort()).toEqual(Object.keys(today).sort());
      expect(new Set(derived.query)).toEqual(new Set(today.query));
      expect(new Set(derived.frames)).toEqual(new Set(today.frames));
    }
  });

  it("a list added to a frame schema and marked there is omitted by toWire when empty and kept when not", () => {
    const empty = { ...frame, tags: [], notes: [] };
    const full = { ...frame, tags: ["a", "b"], notes: ["n"] };
    const frames = [empty, full];
    const envelope = { type: "frames" as const, id: "q1", result: { frames, truncated: false } };
    const [first, second] = wireFrames(toWire(envelope));
    expect(first).not.toHaveProperty("tags");
    expect(first).not.toHaveProperty("provenance");
    expect(second?.["tags"]).toEqual(["a", "b"]);
    // Defaulted but not marked: kept empty, as the reference keeps any list it does not omit.
    expect(first?.["notes"]).toEqual([]);
    expect(second?.["notes"]).toEqual(["n"]);
    // Declaration order: the new members come last, after the frame's own.
    expect(Object.keys(second ?? {}).slice(-2)).toEqual(["tags", "notes"]);
  });

  it("the fast wire writer reads the same mark: it writes what encodeLine writes", () => {
    const write = wireWriter(fixture.framesEnvelope!)!;
    const values = [
      { ...frame, provenance: [], relations: [], tags: [], notes: [] },
      { ...frame, provenance: [], relations: [], tags: ["x"], notes: [] },
      { ...frame, provenance: [{ type: "file" }], relations: [], tags: [], notes: ["n"] },
    ];
    for (const value of values) {
      const frames = [value];
      const envelope = { type: "frames" as const, result: { frames, truncated: true } };
      expect(`${write(envelope)}\n`).toBe(encodeLine(envelope));
    }
  });

  it("finds a mark through the member's wrappers and at any depth", () => {
    const inner = z.object({ lists: omittedWhenEmpty(z.array(z.string())).optional() });
    const outer = z.object({
      items: z.array(inner),
      byName: z.record(z.string(), z.object({ more: omittedWhenEmpty(z.array(z.number())) })),
      either: z.union([z.string(), z.object({ deep: omittedWhenEmpty(z.array(z.string())) })]),
      later: z.lazy(() => z.object({ lazy: omittedWhenEmpty(z.array(z.string())) })),
    });
    expect(isOmittedWhenEmpty(inner.shape.lists)).toBe(true);
    expect(isOmittedWhenEmpty(ContextFrameSchema.shape.title)).toBe(false);
    expect(omittedListNames(outer)).toEqual(new Set(["lists", "more", "deep", "lazy"]));
    expect(omittedListNames(ContextQueryResultSchema)).toEqual(
      new Set(["provenance", "relations"]),
    );
  });

  it("refuses a mark on a member that is not a list", () => {
    const schema = z.object({ label: omittedWhenEmpty(z.string().optional()) });
    expect(() => omittedListNames(schema)).toThrow(/"label" is not a list/);
  });

  it("refuses a marked name that also names an unmarked member of the same envelope type (toWire omits by name)", () => {
    const schema = z.object({
      frames: z.array(ContextFrameSchema),
      meta: z.object({ relations: z.array(z.string()) }),
    });
    expect(() => omittedListNames(schema)).toThrow(/"relations" also names an unmarked member/);
  });

  it("refuses a union variant without one literal tag", () => {
    const union = z.union([
      z.object({ type: z.literal("a"), list: omittedWhenEmpty(z.array(z.string())) }),
      z.object({ type: z.string() }),
    ]);
    expect(() => omittedListsByType(union)).toThrow(/without one literal "type"/);
  });
});
