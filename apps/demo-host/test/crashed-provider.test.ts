/**
 * Issue 43: when a provider child dies, the demo host says why — the child's
 * last stderr line is in the `not started` line on stderr and, with `--json`,
 * in a JSON document on stdout (`notStarted`). Real host and child processes.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { hostCli } from "./helpers.js";

const run = promisify(execFile);
const dying = fileURLToPath(new URL("./fixtures/dies-with-reason.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "ocp-demo-host-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REASON = "index failed: Disallowed special token found: <|endoftext|>";

async function host(extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [
    hostCli,
    "--consent-file",
    join(dir, "consent.jsonl"),
    "--stdio",
    `docs=${process.execPath} ${dying}`,
    ...extra,
    "what is the retry policy?",
  ];
  return run(process.execPath, args).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

describe("a provider that crashes at start", () => {
  it("is reported with the child's last stderr line", async () => {
    const { code, stderr } = await host([]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `provider docs not started: provider_crashed: provider "docs" exited (code 1): ${REASON}`,
    );
    expect(stderr).toContain("no provider could be started");
  }, 30_000);

  it("with --json, prints one JSON document on stdout naming it", async () => {
    const { code, stdout } = await host(["--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      providers: unknown[];
      notStarted: Array<{ providerId: string; code: string; message: string }>;
      error: { code: string };
    };
    expect(report.providers).toEqual([]);
    expect(report.error.code).toBe("no_provider");
    expect(report.notStarted).toEqual([
      {
        providerId: "docs",
        code: "provider_crashed",
        message: `provider "docs" exited (code 1): ${REASON}`,
      },
    ]);
  }, 30_000);
});
