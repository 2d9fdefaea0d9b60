import { type ChildProcess, execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostCli, providerCli, startHttpProvider } from "./helpers.js";

const run = promisify(execFile);

let dir: string;
let httpProvider: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-e2e-"));
  mkdirSync(join(dir, "local"));
  mkdirSync(join(dir, "remote"));
  writeFileSync(
    join(dir, "local", "versions.md"),
    "# Versions\n\nTwo versions interoperate when they share a major family.\n\n## Drafts\n\nThe -draft suffix does not change the family.\n",
  );
  writeFileSync(
    join(dir, "remote", "families.md"),
    "# Major families\n\nThe family of ocp/1.0-draft is ocp/1: versions interoperate within it.\n",
  );
  ({ child: httpProvider, url } = await startHttpProvider(["--name", "wiki", join(dir, "remote")]));
}, 30_000);

afterAll(() => {
  httpProvider?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

function hostArgs(...extra: string[]): string[] {
  return [
    hostCli,
    "--stdio",
    `local=${process.execPath} ${providerCli} ${join(dir, "local")}`,
    "--http",
    `remote=${url}`,
    "--consent-file",
    join(dir, "consent.jsonl"),
    ...extra,
  ];
}

interface JsonReport {
  providers: Array<{ id: string; egress: boolean; consent: string }>;
  composed: {
    text: string;
    tokens: number;
    maxTokens: number;
    included: Array<{
      providerId: string;
      label: string;
      provenance: Array<{ uri: string; range: string; digest: string }>;
    }>;
  };
  failures: Array<{ providerId: string; reason: string }>;
}

describe("demo host and demo provider, end to end", () => {
  it("without consent the HTTP provider is not queried (C2), and says so", async () => {
    const { stdout } = await run(process.execPath, hostArgs("--json", "do versions interoperate?"));
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.providers.find((p) => p.id === "remote")).toMatchObject({
      egress: true,
      consent: "required",
    });
    expect(report.failures).toEqual([
      expect.objectContaining({ providerId: "remote", reason: "consent_required" }),
    ]);
    expect(report.composed.included.every((c) => c.providerId === "local")).toBe(true);
  });

  it("with --grant it is queried, and every citation points at real lines whose digest matches", async () => {
    const { stdout } = await run(
      process.execPath,
      hostArgs("--json", "--grant", "remote", "--max-tokens", "600", "do versions interoperate?"),
    );
    const report = JSON.parse(stdout) as JsonReport;
    const providers = new Set(report.composed.included.map((c) => c.providerId));
    expect(providers).toEqual(new Set(["local", "remote"]));
    expect(report.composed.tokens).toBeLessThanOrEqual(600);
    for (const citation of report.composed.included) {
      const [provenance] = citation.provenance;
      const [, start, end] = /^L(\d+)-(\d+)$/.exec(provenance!.range)!.map(Number);
      const lines = readFileSync(fileURLToPath(provenance!.uri), "utf8").split("\n");
      const served = lines.slice(start! - 1, end).join("\n");
      expect(`sha256:${createHash("sha256").update(served).digest("hex")}`).toBe(
        provenance!.digest,
      );
      expect(citation.label).toMatch(new RegExp(`L${start}-${end}$`));
      expect(report.composed.text).toContain(citation.label);
    }
  });

  it("remembers the consent in its file: a later run without --grant still queries it", async () => {
    const { stdout } = await run(process.execPath, hostArgs("--json", "major family"));
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.providers.find((p) => p.id === "remote")?.consent).toBe("granted");
    expect(report.failures).toEqual([]);
    const receipts = readFileSync(join(dir, "consent.jsonl"), "utf8").trim().split("\n");
    expect(receipts).toHaveLength(1);
  });

  it("prints a readable report: providers, fenced context, frames used, drops and usage", async () => {
    const { stdout } = await run(
      process.execPath,
      hostArgs("--max-tokens", "400", "what is a major family?"),
    );
    for (const heading of [
      "== Providers",
      "== Composed context",
      "== Frames used",
      "== Dropped and why",
      "== Usage",
    ]) {
      expect(stdout).toContain(heading);
    }
    expect(stdout).toMatch(/families\.md L\d+-\d+/);
  });

  it("exits 2 with a clear message on bad usage", async () => {
    await expect(run(process.execPath, [hostCli, "question"])).rejects.toMatchObject({ code: 2 });
    await expect(
      run(process.execPath, [hostCli, "--max-tokens", "-3", "--stdio", "a=b", "q"]),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      run(process.execPath, [hostCli, "--kinds", "image", "--stdio", "a=b", "q"]),
    ).rejects.toMatchObject({ code: 2 });
  });
});
