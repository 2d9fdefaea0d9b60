import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createFixtureProvider, runConformance } from "../src/index.js";
import { evidenceOf, FAST, failed, statusOf } from "./helpers.js";

const replay = fileURLToPath(new URL("./fixtures/reference-replay.mjs", import.meta.url));

describe("compatibility with the Rust reference's verdicts", () => {
  it("a provider answering with the reference's own recorded bytes is conformant in the default mode", async () => {
    const report = await runConformance({ command: process.execPath, args: [replay] }, FAST);
    expect(report.conformant).toBe(true);
    expect(report.identity?.provider.name).toBe("repo-graph");
    // It ignores kinds and max_frames, as the reference allows: advisory failures only.
    expect(failed(report)).toEqual(["kinds-filter", "max-frames"]);
    expect(statusOf(report, "correlation")).toBe("skipped");
    expect(evidenceOf(report, "version-mismatch")).toMatch(
      /acked its own ocp\/1\.0-draft, so the host names the mismatch/,
    );
    expect(evidenceOf(report, "malformed-input-tolerance")).toMatch(
      /survived 5 malformed inputs \(0 answered, 5 silently ignored\)/,
    );
    expect(statusOf(report, "schema")).toBe("pass");
  });

  it("the same provider is not conformant under --strict, for the advisory reasons only", async () => {
    const report = await runConformance(
      { command: process.execPath, args: [replay] },
      { ...FAST, strict: true },
    );
    expect(report.conformant).toBe(false);
    expect(
      report.checks.filter((check) => check.status === "fail").every((check) => check.advisory),
    ).toBe(true);
  });
});

describe("bounded reading", () => {
  it("R2: a provider answering one query with 5000 replies is cut off at the message limit and fails", async () => {
    const flood = fileURLToPath(new URL("./fixtures/flood.mjs", import.meta.url));
    const report = await runConformance({ command: process.execPath, args: [flood] }, FAST);
    expect(statusOf(report, "shutdown-clean")).toBe("fail");
    expect(evidenceOf(report, "shutdown-clean")).toBe(
      "R2: shutdown failed: the provider wrote more than 1000 messages on one connection (a flood) and was cut off",
    );
    expect(report.conformant).toBe(false);
  });
});

describe("in-process targets", () => {
  it("the honest in-process fixture passes; the wire-only checks are skipped with the reason", async () => {
    const report = await runConformance({ provider: createFixtureProvider() }, FAST);
    expect(report.transport).toBe("in-process");
    expect(report.target).toBe("in-process: fixture");
    expect(failed(report)).toEqual([]);
    expect(statusOf(report, "version-mismatch")).toBe("skipped");
    expect(statusOf(report, "malformed-input-tolerance")).toBe("skipped");
    expect(statusOf(report, "correlation")).toBe("skipped");
    expect(report.conformant).toBe(true);
  });

  it("B1 and T1 catch in-process liars as they catch wire ones", async () => {
    const lying = await runConformance(
      { create: () => createFixtureProvider("lying-costs") },
      FAST,
    );
    expect(failed(lying)).toEqual(["budget-honesty"]);
    const cheap = await runConformance({ provider: createFixtureProvider("cheap-costs") }, FAST);
    expect(failed(cheap)).toEqual(["cost-truth"]);
  });

  it("R2: an in-process provider whose shutdown never settles fails shutdown-clean within the bound", async () => {
    const report = await runConformance(
      { provider: createFixtureProvider("hang-on-shutdown") },
      FAST,
    );
    expect(failed(report)).toEqual(["shutdown-clean"]);
    expect(evidenceOf(report, "shutdown-clean")).toBe(
      "R2: still running 4000 ms after shutdown; no answer",
    );
  });
});
