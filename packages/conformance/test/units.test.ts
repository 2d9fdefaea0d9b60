import { readFileSync } from "node:fs";
import { type ContextFrame, ContextQueryResultSchema, decodeLine } from "@ocp/types";
import { describe, expect, it } from "vitest";
import { CHEAP_CONTENT, SEEDS } from "../src/fixture/provider.js";
import { formatReport, isConformant } from "../src/index.js";
import {
  CHECK_SPECS,
  countContentTokens,
  FixtureLogic,
  judgeCosts,
  judgeHandshake,
  judgeProbe,
  judgeSchema,
  judgeShutdown,
  judgeVersionMismatch,
  MISBEHAVE_MODES,
  pickKind,
  probeQuery,
  schemaErrors,
  tally,
} from "../src/internal.js";
import { fail, pass, skip } from "../src/report.js";

function frame(
  content: string,
  token_cost: number,
  kind: ContextFrame["kind"] = "doc",
): ContextFrame {
  return {
    id: `f-${token_cost}`,
    kind,
    title: "t",
    content,
    score: 0.5,
    token_cost,
    provenance: [],
    relations: [],
    citation_label: "t L1",
  };
}

describe("report verdicts", () => {
  it("a run passes when no deciding check fails; skips never fail it; advisory failures decide only when strict", () => {
    const checks = [
      pass("handshake", "ok"),
      skip("malformed-input-tolerance", "n/a"),
      fail("kinds-filter", "K1"),
    ];
    expect(isConformant(checks, false)).toBe(true);
    expect(isConformant(checks, true)).toBe(false);
    expect(isConformant([...checks, fail("budget-honesty", "B1")], false)).toBe(false);
    expect(tally({ checks })).toEqual({ passed: 1, failed: 1, skipped: 1, advisoryFailed: 1 });
  });

  it("exactly kinds-filter and max-frames are advisory: the rules the host only trims", () => {
    expect(CHECK_SPECS.filter((spec) => spec.advisory).map((spec) => spec.name)).toEqual([
      "kinds-filter",
      "max-frames",
    ]);
  });

  it("formats ✓, ✗, – and the verdict line, coloured only on request", () => {
    const report = {
      target: "stdio: p",
      transport: "stdio" as const,
      strict: false,
      checks: [
        pass("handshake", "ok"),
        fail("budget-honesty", "B1: over"),
        skip("correlation", "n/a"),
      ],
      conformant: false,
    };
    const text = formatReport(report);
    expect(text).toContain("  ✓ handshake [H1, H2]\n      ok");
    expect(text).toContain("  ✗ budget-honesty [B1]\n      B1: over");
    expect(text).toContain("  – correlation [X-CORR]\n");
    expect(text).toMatch(/NOT CONFORMANT — 1 failed, 1 passed, 1 skipped\n$/);
    expect(text).not.toContain("\u001b[");
    expect(formatReport(report, { color: true })).toContain("\u001b[31m");
  });
});

describe("cost-truth (T1)", () => {
  it("fails a frame claiming 1 token for 10 KB, naming the frame, the claim and the count", () => {
    const content = "x".repeat(10) + CHEAP_CONTENT;
    const check = judgeCosts(
      ContextQueryResultSchema.parse({ frames: [frame(content, 1)], truncated: false }),
    );
    expect(check.status).toBe("fail");
    expect(check.evidence).toBe(
      `T1: under-reports by more than 2× + 16: frame 0 ("f-1") declares 1, its content counts ${countContentTokens(content)} o200k_base tokens (allowed 18)`,
    );
  });

  it("passes a claim of exactly half the count, and reports (without failing) over-reporting", () => {
    const content = "The retry loop doubles its delay after every failed attempt.";
    const counted = countContentTokens(content);
    const half = judgeCosts({ frames: [frame(content, Math.ceil(counted / 2))], truncated: false });
    expect(half.status).toBe("pass");
    const over = judgeCosts({ frames: [frame(content, 10 * counted + 100)], truncated: false });
    expect(over.status).toBe("pass");
    expect(over.evidence).toContain("over-reported (not a failure)");
  });

  it("the fixture's pinned costs are the real o200k_base counts of its content", () => {
    for (const seed of SEEDS) expect(seed.tokens).toBe(countContentTokens(seed.content));
  });
});

describe("schema (S1)", () => {
  const reference = readFileSync(
    new URL("../../types/test/fixtures/reference/full-stdio-session.ndjson", import.meta.url),
    "utf8",
  )
    .trim()
    .split("\n");

  it("every message of the reference's wire transcript validates against the envelope schema", () => {
    for (const line of reference) expect(schemaErrors(line)).toEqual({ errors: [], attributed: 0 });
  });

  it("attributes F1-F3 and H1-H2 errors to their own checks, and names the rest by JSON path", () => {
    const frames = JSON.parse(reference.find((line) => line.includes('"frames"'))!);
    frames.result.frames[0].score = 1.5;
    frames.result.frames[0].citation_label = "";
    frames.result.frames[1].id = "";
    expect(schemaErrors(JSON.stringify(frames))).toEqual({
      errors: ["/result/frames/1/id must NOT have fewer than 1 characters"],
      attributed: 2,
    });
    expect(schemaErrors('{"type":"nope"}').errors).toEqual([
      '"type" "nope" is not an envelope type',
    ]);
    expect(schemaErrors("log: starting").errors).toEqual(["not JSON"]);
  });

  it("a provider that logs to stdout fails the schema check with the line quoted", () => {
    const check = judgeSchema([{ session: "main", after: "handshake", raw: "starting provider…" }]);
    expect(check.status).toBe("fail");
    expect(check.evidence).toBe(
      'S1: 1 of 1 message(s) fail the envelope schema: message 1 (main connection, after handshake): not JSON in "starting provider…"',
    );
  });
});

describe("frame-validity (F1, F2, F3)", () => {
  it("F2, F3: an empty title and a blank citation label fail, each named with its frame", () => {
    const bad = { ...frame("body", 1), title: "", citation_label: "  " };
    const verdicts = judgeProbe(
      { kind: "frames", result: { frames: [frame("ok", 1), bad], truncated: false } },
      probeQuery(),
    );
    expect(verdicts.frameValidity.status).toBe("fail");
    expect(verdicts.frameValidity.evidence).toBe(
      'F2: frame 1 ("f-1"): title is empty; F3: frame 1 ("f-1"): citation_label is blank',
    );
    expect(verdicts.budgetHonesty.status).toBe("pass");
  });

  it("H2: an empty provider.version fails the handshake with the value quoted", () => {
    const raw = JSON.stringify({
      type: "handshake_ack",
      protocol_version: "ocp/1.0-draft",
      provider: { name: "p", version: "", data_flow: {} },
      capabilities: {},
    });
    const { check } = judgeHandshake({ kind: "message", raw, decoded: decodeLine(raw) });
    expect(check.evidence).toBe('H2: provider.version is empty ("")');
  });
});

describe("probes", () => {
  it("kinds-filter asks for the rarest kind returned, else a declared kind not returned", () => {
    const mixed = {
      frames: [frame("a", 1, "doc"), frame("b", 1, "doc"), frame("c", 1, "symbol")],
      truncated: false,
    };
    expect(pickKind(mixed, [])).toBe("symbol");
    const docs = { frames: [frame("a", 1, "doc")], truncated: false };
    expect(pickKind(docs, ["doc", "snippet"])).toBe("snippet");
    expect(pickKind(docs, ["doc"])).toBe("snippet");
    expect(pickKind({ frames: [], truncated: false }, ["fact"])).toBe("fact");
  });

  it("H3: silence, an exit or a non-version fails version-mismatch; an error or a versioned ack passes", () => {
    expect(judgeVersionMismatch({ kind: "timeout", waitedMs: 5000 }, "ocp/99.0").status).toBe(
      "fail",
    );
    expect(
      judgeVersionMismatch({ kind: "exit", code: 1, signal: null, stderr: "" }, "ocp/99.0")
        .evidence,
    ).toBe("H3: no named answer to a handshake of ocp/99.0: the provider exited with code 1");
    const reply = (raw: string) => new FixtureLogic().handle(raw);
    // A plain peer gets a plain error; one that asked for error_code gets the code (X-CODE).
    expect(reply('{"type":"handshake","protocol_version":"ocp/99.0"}')).toMatchObject({
      kind: "reply",
      envelope: { type: "error" },
    });
    expect(
      (reply('{"type":"handshake","protocol_version":"ocp/99.0"}') as { envelope: object })
        .envelope,
    ).not.toHaveProperty("code");
    expect(
      reply('{"type":"handshake","protocol_version":"ocp/99.0","extensions":["error_code"]}'),
    ).toMatchObject({ kind: "reply", envelope: { type: "error", code: "incompatible_version" } });
  });

  it("R2: a non-zero exit on shutdown fails; a clean exit passes", () => {
    expect(judgeShutdown({ kind: "exited", code: 3, signal: null }, 10).evidence).toBe(
      "R2: exited with code 3 on shutdown",
    );
    expect(judgeShutdown({ kind: "exited", code: null, signal: "SIGTERM" }, 10).status).toBe(
      "fail",
    );
    expect(judgeShutdown({ kind: "exited", code: 0, signal: null }, 10).status).toBe("pass");
  });

  it("every misbehave mode names a real check", () => {
    const names = new Set(CHECK_SPECS.map((spec) => spec.name));
    for (const check of Object.values(MISBEHAVE_MODES)) expect(names.has(check)).toBe(true);
    expect(new Set(Object.values(MISBEHAVE_MODES))).toEqual(names);
  });
});
