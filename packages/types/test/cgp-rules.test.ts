import { describe, expect, it } from "vitest";
import {
  CGP_RULES,
  type CgpFrameLike,
  canonicalTokenCost,
  cgpAnswerViolations,
  cgpFrameViolations,
  cgpQueryViolations,
  rulesFor,
  sha256Digest,
} from "../src/cgp/index.js";
import { RULES } from "../src/index.js";

const CONTENT = "The retry loop doubles its delay.";
const DIGEST = sha256Digest(CONTENT);
const SOURCE_HASH = sha256Digest("the whole retry policy document");

/** A full frame that keeps every frame rule. */
const full = (patch: Partial<CgpFrameLike> = {}): CgpFrameLike => ({
  id: "f1",
  kind: "doc",
  title: "Retry",
  content: CONTENT,
  content_digest: DIGEST,
  score: 0.5,
  token_cost: canonicalTokenCost(CONTENT),
  valid_from: "2026-01-01T00:00:00Z",
  recorded_at: "2026-07-20T18:00:00.123Z",
  provenance: [{ type: "file", uri: "file:///repo/retry.md", range: "L1-2", digest: DIGEST }],
  citation_label: "retry.md L1-2",
  relations: [{ rel: "doc.documents", target_uri: "symbol:///retry", display_name: "retry" }],
  ...patch,
});

const contentRef = { provider_id: "docs", uri: "context://docs/records/retry" };
const transform = { method: "extractive_summary", implementation: "default", version: "1" };

const compact = (patch: Partial<CgpFrameLike> = {}): CgpFrameLike =>
  full({
    representation: "compact",
    canonical_content_hash: SOURCE_HASH,
    content_ref: contentRef,
    transform,
    canonical_token_cost: 400,
    ...patch,
  });

const reference = (patch: Partial<CgpFrameLike> = {}): CgpFrameLike => {
  const { content: _c, content_digest: _d, ...rest } = full();
  return {
    ...rest,
    representation: "reference",
    canonical_content_hash: SOURCE_HASH,
    content_ref: contentRef,
    token_cost: 0,
    ...patch,
  };
};

const rulesOf = (frame: CgpFrameLike) => cgpFrameViolations(frame).map((v) => v.rule);

describe("cgpFrameViolations: one frame, every frame rule", () => {
  it("an honest full, compact and reference frame keep every rule", () => {
    expect(cgpFrameViolations(full())).toEqual([]);
    expect(cgpFrameViolations(compact())).toEqual([]);
    expect(cgpFrameViolations(reference())).toEqual([]);
  });

  const breaking: [string, CgpFrameLike][] = [
    ["F1", full({ score: 1.5 })],
    ["F1", full({ score: Number.NaN })],
    ["F2", full({ title: " " })],
    ["F3", full({ citation_label: undefined })],
    ["F3", full({ citation_label: " \t " })],
    ["F4", full({ valid_from: "last tuesday" })],
    ["F4", full({ valid_to: "2026-07-20T18:00:00+02:00" })],
    ["F4", full({ recorded_at: "2026-02-29T00:00:00Z" })],
    ["F5", full({ provenance: [{ type: "file", uri: "file:///repo/retry.md" }] })],
    [
      "F5",
      full({
        provenance: [{ type: "file", digest: DIGEST.toUpperCase().replace("SHA256", "sha256") }],
      }),
    ],
    ["D1", full({ content_digest: "sha256:9f2c3e7a1b" })],
    ["G1", full({ relations: [{ rel: "code.calls", target_uri: "symbol:///x" }] })],
    ["G2", full({ relations: [{ rel: "code.calls", target_uri: "", display_name: "x" }] })],
    ["P1", full({ canonical_content_hash: SOURCE_HASH })],
    ["P2", compact({ transform: undefined })],
    ["P3", reference({ content_digest: DIGEST })],
    ["P4", reference({ token_cost: 9 })],
    ["B3", full({ token_cost: canonicalTokenCost(CONTENT) - 1 })],
  ];
  for (const [rule, frame] of breaking) {
    it(`${rule}: a frame breaking only ${rule} is reported as exactly ${rule}`, () => {
      expect(rulesOf(frame)).toEqual([rule]);
      expect(cgpFrameViolations(frame)[0]?.frameId).toBe("f1");
    });
  }

  it("F5 holds only file provenance to a digest: a derivation link needs none", () => {
    expect(rulesOf(full({ provenance: [{ type: "derivation", uri: "x://y" }] }))).toEqual([]);
  });

  it("P3: a reference frame carrying content, even empty, breaks P3", () => {
    expect(rulesOf(reference({ content: "" }))).toContain("P3");
  });

  it("B3 counts UTF-8 bytes, not characters: 'café' is 5 bytes, 2 budget tokens", () => {
    expect(canonicalTokenCost("café")).toBe(2);
    expect(canonicalTokenCost("")).toBe(0);
    expect(canonicalTokenCost("😀")).toBe(1);
    expect(
      rulesOf(full({ content: "café", token_cost: 1, content_digest: sha256Digest("café") })),
    ).toEqual(["B3"]);
  });
});

describe("cgpAnswerViolations: B1 and B4 on a whole answer", () => {
  const cost = canonicalTokenCost(CONTENT);
  it("an answer within both bounds has no violation", () => {
    expect(
      cgpAnswerViolations({ max_tokens: cost * 2, max_frames: 2 }, [full(), full({ id: "f2" })]),
    ).toEqual([]);
  });
  it("B1: declared costs over max_tokens is exactly B1", () => {
    const v = cgpAnswerViolations({ max_tokens: cost * 2 - 1, max_frames: 8 }, [
      full(),
      full({ id: "f2" }),
    ]);
    expect(v.map((x) => x.rule)).toEqual(["B1"]);
  });
  it("B4: more frames than max_frames is exactly B4 (and reads a result object too)", () => {
    const v = cgpAnswerViolations(
      { max_tokens: 1000, max_frames: 1 },
      { frames: [full(), full({ id: "f2" })] },
    );
    expect(v.map((x) => x.rule)).toEqual(["B4"]);
  });
  it("frame violations come first, each naming its frame", () => {
    const v = cgpAnswerViolations({ max_tokens: 1000, max_frames: 8 }, [
      full(),
      full({ id: "bad", score: 2 }),
    ]);
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ rule: "F1", frameId: "bad" });
  });
  it("F4 on a query: as_of outside the UTC profile", () => {
    expect(cgpQueryViolations({ as_of: "2026-07-01T00:00:00Z" })).toEqual([]);
    expect(cgpQueryViolations({ as_of: "2026-07-01 00:00:00Z" }).map((v) => v.rule)).toEqual([
      "F4",
    ]);
  });
});

describe("CGP_RULES and rulesFor", () => {
  const SPEC_IDS = [
    ...["H1", "H2", "H3", "H4"],
    ...["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"],
    "E1",
    ...["F1", "F2", "F3", "F4", "F5"],
    ...["D1", "D2", "D3", "D4"],
    ...["P1", "P2", "P3", "P4", "P5"],
    ...["B1", "B2", "B3", "B4"],
    ...["G1", "G2", "G3"],
    ...["V1", "V2", "V3", "V4"],
    ...["X1", "X2"],
    ...["R1", "R2", "R3"],
    ...["U1", "U2", "U3", "U4"],
  ];

  it("lists every SPEC requirement once, in SPEC order, our extensions after", () => {
    const spec = CGP_RULES.filter((r) => r.source === "spec").map((r) => r.id);
    expect(spec).toEqual(SPEC_IDS);
    const firstExtension = CGP_RULES.findIndex((r) => r.source === "extension");
    expect(CGP_RULES.slice(firstExtension).every((r) => r.source === "extension")).toBe(true);
    expect(new Set(CGP_RULES.map((r) => r.id)).size).toBe(CGP_RULES.length);
  });

  it("a host drops or refuses exactly what the suite fails; B4 drops (no trimming in this family)", () => {
    for (const rule of CGP_RULES) {
      if (rule.host === "drop" || rule.host === "refuse") expect(rule.suite, rule.id).toBe("fail");
      // K1 has no wire check in this family: the host's trimming is tested where it is done.
      if (rule.host === "trim") expect(["advisory", "rulebook"], rule.id).toContain(rule.suite);
    }
    expect(CGP_RULES.find((r) => r.id === "B4")?.host).toBe("drop");
  });

  it("every rule cgpFrameViolations or cgpAnswerViolations reports is in the table", () => {
    const ids = new Set(CGP_RULES.map((r) => r.id));
    for (const id of [
      "F1",
      "F2",
      "F3",
      "F4",
      "F5",
      "D1",
      "G1",
      "G2",
      "P1",
      "P2",
      "P3",
      "P4",
      "B1",
      "B3",
      "B4",
    ]) {
      expect(ids.has(id as never), id).toBe(true);
    }
  });

  it("rulesFor picks one table per family, never a mix", () => {
    expect(rulesFor("ocp/1")).toBe(RULES);
    expect(rulesFor("contextgraph/1")).toBe(CGP_RULES);
  });
});
