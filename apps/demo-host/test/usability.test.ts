import { type ChildProcess, execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DEFAULT_LEG_TIMEOUT_MS } from "@ocp/host/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostCli, providerCli, startHttpProvider } from "./helpers.js";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../../../", import.meta.url));
const version = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

let dir: string;
let spaced: string;
let httpProvider: ChildProcess;
let url: string;

/** Sections of ~900 tokens each: none fits a 600-token budget whole. */
function bigSection(title: string, topic: string): string {
  const lines = [`# ${title}`, ""];
  for (let i = 0; i < 60; i++) {
    lines.push(
      i === 31
        ? `The ${topic} is renewed by the lease keeper before its lease_ttl_ms runs out.`
        : `Line ${i} of the ${title.toLowerCase()} notes says something unrelated at length.`,
    );
  }
  return `${lines.join("\n")}\n`;
}

interface JsonReport {
  composed: {
    text: string;
    tokens: number;
    included: Array<{
      providerId: string;
      label: string;
      provenance: Array<{ uri: string; range: string; digest: string }>;
    }>;
  };
  failures: Array<{ providerId: string; reason: string }>;
}

/** Every citation names real lines whose bytes hash to the provenance digest. */
function expectCitedAndTrue(report: JsonReport): void {
  expect(report.composed.included.length).toBeGreaterThan(0);
  for (const citation of report.composed.included) {
    const [provenance] = citation.provenance;
    const [, start, end] = /^L(\d+)-(\d+)$/.exec(provenance!.range)!.map(Number);
    const lines = readFileSync(fileURLToPath(provenance!.uri), "utf8").split("\n");
    const served = lines.slice(start! - 1, end).join("\n");
    expect(`sha256:${createHash("sha256").update(served).digest("hex")}`).toBe(provenance!.digest);
    expect(citation.label).toMatch(new RegExp(` L${start === end ? start : `${start}-${end}`}$`));
    expect(report.composed.text).toContain(`cite=${JSON.stringify(citation.label)}`);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-usability-"));
  spaced = join(dir, "my notes");
  mkdirSync(spaced);
  writeFileSync(join(spaced, "leases.md"), bigSection("Lease handling", "lease"));
  writeFileSync(join(spaced, "tokens.md"), bigSection("Token handling", "token lease"));
  mkdirSync(join(dir, "remote"));
  writeFileSync(join(dir, "remote", "wiki.md"), "# Leases\n\nLeases are renewed.\n");
  ({ child: httpProvider, url } = await startHttpProvider([join(dir, "remote")]));
}, 30_000);

afterAll(() => {
  httpProvider?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("the demo host's command line", () => {
  it("prints its version with --version and -v", async () => {
    for (const flag of ["--version", "-v"]) {
      const { stdout } = await run(process.execPath, [hostCli, flag]);
      expect(stdout).toBe(`${version}\n`);
    }
  });

  it("documents the host's real default timeout, the -- form and every exit status", async () => {
    const { stdout } = await run(process.execPath, [hostCli, "--help"]);
    expect(stdout).toContain(
      `--timeout MS         per-provider timeout (default ${DEFAULT_LEG_TIMEOUT_MS}`,
    );
    expect(stdout).not.toContain("5000");
    expect(stdout).toContain("-- ID=COMMAND ARG...");
    expect(stdout).toMatch(/3 when providers were\s+started but none answered/);
  });

  it("takes a provider path with spaces, quoted in --stdio or verbatim after --", async () => {
    const quoted = await run(process.execPath, [
      hostCli,
      "--json",
      "--stdio",
      `notes=${process.execPath} ${providerCli} --quiet "${spaced}"`,
      "lease renewal",
    ]);
    const afterDashes = await run(process.execPath, [
      hostCli,
      "--json",
      "lease",
      "renewal",
      "--",
      `notes=${process.execPath}`,
      providerCli,
      "--quiet",
      spaced,
    ]);
    for (const { stdout } of [quoted, afterDashes]) {
      const report = JSON.parse(stdout) as JsonReport;
      expect(report.failures).toEqual([]);
      expectCitedAndTrue(report);
    }
    await expect(
      run(process.execPath, [hostCli, "--stdio", 'a=node "unterminated', "q"]),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("unterminated") });
    await expect(run(process.execPath, [hostCli, "q", "--", "no-id"])).rejects.toMatchObject({
      code: 2,
    });
  });

  it("with --max-tokens 600 serves cited parts of sections no budget that small fits whole", async () => {
    const { stdout } = await run(process.execPath, [
      hostCli,
      "--json",
      "--max-tokens",
      "600",
      "how is the lease renewed?",
      "--",
      `notes=${process.execPath}`,
      providerCli,
      "--quiet",
      spaced,
    ]);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.composed.tokens).toBeLessThanOrEqual(600);
    expectCitedAndTrue(report);
    expect(report.composed.text).toContain("renewed by the lease keeper");
    expect(report.composed.included.map((c) => c.label).join(" ")).toMatch(/leases\.md L\d+-\d+/);
  });

  it("with --max-tokens 600 over this repository's README and docs, returns cited frames", async () => {
    const { stdout } = await run(process.execPath, [
      hostCli,
      "--json",
      "--max-tokens",
      "600",
      "--stdio",
      `docs=${process.execPath} ${providerCli} --quiet ${join(repo, "README.md")} ${join(repo, "docs")}`,
      "How is consent for an egress provider recorded and revoked?",
    ]);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.composed.tokens).toBeLessThanOrEqual(600);
    expectCitedAndTrue(report);
    expect(report.composed.included.some((c) => c.label.startsWith("docs/"))).toBe(true);
  });

  it("prints the providers table once, on stdout, in human mode", async () => {
    const { stdout, stderr } = await run(process.execPath, [
      hostCli,
      "--stdio",
      `notes=${process.execPath} ${providerCli} --quiet "${spaced}"`,
      "lease",
    ]);
    expect(stdout.match(/provider\s+name\s+version\s+transport/g)).toHaveLength(1);
    expect(stderr).not.toMatch(/provider\s+name\s+version/);
  });

  it("exits 3, saying so, when providers started but none answered", async () => {
    // The only provider is remote (egress) and has no consent: it is never queried.
    const failure = await run(process.execPath, [
      hostCli,
      "--consent-file",
      join(dir, "consent.jsonl"),
      "--http",
      `wiki=${url}`,
      "--json",
      "leases",
    ]).then(
      () => undefined,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failure?.code).toBe(3);
    expect(failure?.stderr).toContain("no provider answered");
    const report = JSON.parse(failure!.stdout) as JsonReport;
    expect(report.failures).toEqual([
      expect.objectContaining({ providerId: "wiki", reason: "consent_required" }),
    ]);
    // The same provider with consent answers: exit 0.
    const { stdout } = await run(process.execPath, [
      hostCli,
      "--consent-file",
      join(dir, "consent.jsonl"),
      "--http",
      `wiki=${url}`,
      "--grant",
      "wiki",
      "--json",
      "leases",
    ]);
    expect((JSON.parse(stdout) as JsonReport).failures).toEqual([]);
  });
});
