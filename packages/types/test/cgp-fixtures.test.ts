/**
 * Upstream's golden fixtures for `contextgraph/1.0-draft`, driven by its
 * manifest: every file the manifest names is asserted exactly as it means
 * (a fixture the manifest adds without a rule here fails the suite).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  CgpFrameSchema,
  CgpQuerySchema,
  CgpStrictFrameSchema,
  CgpStrictQuerySchema,
  canonicalJson,
  canonicalTokenCost,
  cgpFrameViolations,
  decodeCgpEnvelope,
  sha256Digest,
} from "../src/cgp/index.js";
import { parseJsonText } from "../src/internal.js";

type AjvClass = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ??
  Ajv2020Module) as AjvClass;

const dir = new URL("./vectors/contextgraph-1.0-draft/", import.meta.url);
const text = (name: string) => readFileSync(fileURLToPath(new URL(name, dir)), "utf8");
const json = (name: string) => JSON.parse(text(name)) as unknown;

const upstream = json("contextgraph-envelope.schema.json") as { $id: string };
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(upstream);
/** Upstream's JSON Schema for one of its `$defs` (ContextFrame, ContextQuery). */
const upstreamDef = (name: string) => ajv.getSchema(`${upstream.$id}#/$defs/${name}`)!;

type Frame = Parameters<typeof cgpFrameViolations>[0];
const manifest = json("fixtures/manifest.json") as { files: Record<string, string> };

/** A frame inside a frames envelope, decoded on the interop path. */
function decodeFrame(frame: unknown) {
  return decodeCgpEnvelope({ type: "frames", result: { frames: [frame], truncated: false } });
}

function validFrame(name: string, frame: unknown) {
  expect(decodeFrame(frame).ok, name).toBe(true);
  expect(CgpStrictFrameSchema.safeParse(frame).error?.issues ?? [], name).toEqual([]);
  expect(upstreamDef("ContextFrame")(frame), name).toBe(true);
  expect(cgpFrameViolations(CgpFrameSchema.parse(frame)), name).toEqual([]);
}

const RULES_BY_FILE: [RegExp, (name: string) => void][] = [
  [
    /^context-frame\.valid\.json$/,
    (name) => {
      for (const c of (json(`fixtures/${name}`) as { cases: { source: unknown }[] }).cases) {
        validFrame(name, c.source);
      }
    },
  ],
  [/^context-frame\.[a-z-]+\.valid\.json$/, (name) => validFrame(name, json(`fixtures/${name}`))],
  [
    /^context-query\.valid\.json$/,
    (name) => {
      const cases = (
        json(`fixtures/${name}`) as { cases: { source: unknown; expected_normalized: unknown }[] }
      ).cases;
      for (const c of cases) {
        expect(CgpQuerySchema.safeParse(c.source).success).toBe(true);
        // the normalized form is what the authoring profile (ours and upstream's) describes
        expect(CgpStrictQuerySchema.safeParse(c.expected_normalized).error?.issues ?? []).toEqual(
          [],
        );
        expect(upstreamDef("ContextQuery")(c.expected_normalized)).toBe(true);
      }
    },
  ],
  [
    /^context-frame\.missing-citation\.invalid\.json$/,
    (name) => {
      for (const [label, frame] of Object.entries(
        json(`fixtures/${name}`) as Record<string, Frame>,
      )) {
        // structurally a frame (it decodes) that frame-validity fails on F3; its token_cost
        // also predates B3, and with an honest cost F3 is the one rule it breaks
        expect(decodeFrame(frame).ok, label).toBe(true);
        expect(
          cgpFrameViolations(frame).map((v) => v.rule),
          label,
        ).toContain("F3");
        const honest = { ...frame, token_cost: canonicalTokenCost(frame.content ?? "") };
        expect(
          cgpFrameViolations(honest).map((v) => v.rule),
          label,
        ).toEqual(["F3"]);
      }
    },
  ],
  [/^strict-validation\.invalid\.json$/, () => strictCases().forEach(checkStrictCase)],
  [/^normalization-vectors\.json$/, () => vectors().forEach(checkVector)],
];

describe("the fixture manifest drives which fixtures are valid and invalid", () => {
  for (const name of Object.keys(manifest.files)) {
    it(`${name}: asserted as its name says`, () => {
      const rule = RULES_BY_FILE.find(([pattern]) => pattern.test(name));
      expect(rule, `no rule for manifest file ${name}`).toBeDefined();
      rule![1](name);
    });
  }
});

interface StrictCase {
  name: string;
  target: "frame" | "query";
  input: Record<string, unknown>;
  unknown_path: string;
}

/** `frame.provenance[0].future_field` → `["provenance", 0, "future_field"]`. */
function pathOf(unknownPath: string): (string | number)[] {
  return unknownPath
    .split(".")
    .slice(1)
    .flatMap((part) => {
      const m = /^([^[]+)\[(\d+)\]$/.exec(part);
      return m ? [m[1]!, Number(m[2])] : [part];
    });
}

function withoutMember(value: unknown, path: (string | number)[]): unknown {
  if (path.length === 1) {
    const { [path[0] as string]: _dropped, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  const [head, ...tail] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? withoutMember(v, tail) : v));
  const record = value as Record<string, unknown>;
  return { ...record, [head as string]: withoutMember(record[head as string], tail) };
}

function strictCases(): StrictCase[] {
  const cases = (json("fixtures/strict-validation.invalid.json") as { cases: StrictCase[] }).cases;
  expect(cases.length).toBeGreaterThan(0);
  return cases;
}

/** The authoring profile rejects exactly the unknown member; U1 decodes it to the value without it. */
function checkStrictCase(c: StrictCase): void {
  const path = pathOf(c.unknown_path);
  const strict = c.target === "frame" ? CgpStrictFrameSchema : CgpStrictQuerySchema;
  const lenient = c.target === "frame" ? CgpFrameSchema : CgpQuerySchema;
  const issues = strict.safeParse(c.input).error?.issues ?? [];
  const unknown = issues.filter((i) => i.code === "unrecognized_keys");
  expect(unknown, c.name).toHaveLength(1);
  expect([...unknown[0]!.path, ...(unknown[0] as { keys: string[] }).keys], c.name).toEqual(path);
  const stripped = withoutMember(c.input, path);
  const after = strict.safeParse(stripped).error?.issues ?? [];
  expect(
    after.filter((i) => i.code === "unrecognized_keys"),
    c.name,
  ).toEqual([]);
  expect(lenient.parse(c.input), c.name).toEqual(lenient.parse(stripped));
  if (c.target === "frame") expect(decodeFrame(c.input).ok, c.name).toBe(true);
}

describe("strict-validation.invalid.json: the authoring profile rejects an unknown member, the wire ignores it", () => {
  for (const c of strictCases()) {
    it(`${c.name}: strict rejects ${c.unknown_path}; U1 decodes it to the same value as without it`, () => {
      checkStrictCase(c);
    });
  }
});

interface NormalizationVector {
  name: string;
  input_json: string;
  expected_normalized: unknown;
  expected_jcs_utf8: string;
  sha256: string;
}

function vectors(): NormalizationVector[] {
  const list = (json("fixtures/normalization-vectors.json") as { vectors: NormalizationVector[] })
    .vectors;
  expect(list.length).toBeGreaterThan(0);
  return list;
}

/** I-JSON parse gives expected_normalized, whose RFC 8785 bytes are expected_jcs_utf8, whose SHA-256 is sha256. */
function checkVector(v: NormalizationVector): void {
  const parsed = parseJsonText(v.input_json);
  expect(parsed.ok, v.name).toBe(true);
  if (!parsed.ok) return;
  expect(parsed.value, v.name).toEqual(v.expected_normalized);
  const canonical = canonicalJson(parsed.value);
  expect(canonical, v.name).toBe(v.expected_jcs_utf8);
  expect(canonicalJson(v.expected_normalized), v.name).toBe(v.expected_jcs_utf8);
  expect(sha256Digest(canonical), v.name).toBe(v.sha256);
}

describe("normalization-vectors.json: I-JSON parse, RFC 8785 canonical bytes, SHA-256", () => {
  for (const v of vectors()) {
    it(`${v.name}: parses to expected_normalized, canonicalizes to expected_jcs_utf8, digests to sha256`, () => {
      checkVector(v);
    });
  }

  it("keeps -0 as the value but writes it 0, and rounds 2^53 + 1 the way every IEEE parser does", () => {
    const numbers = parseJsonText('{"b":-0.0,"p":9007199254740993.0}');
    expect(numbers.ok && Object.is((numbers.value as { b: number }).b, -0)).toBe(true);
    expect(canonicalJson(numbers.ok ? numbers.value : null)).toBe('{"b":0,"p":9007199254740992}');
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
  });
});
