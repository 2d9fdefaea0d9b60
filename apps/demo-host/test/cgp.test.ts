import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostCli } from "./helpers.js";

const run = promisify(execFile);
/** The host package's CGP test provider: a real child speaking contextgraph/1.0-draft on stdio. */
const CGP_PROVIDER = fileURLToPath(
  new URL("../../../packages/host/test/fixtures/cgp-provider.mjs", import.meta.url),
);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-cgp-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function lines(path: string): Record<string, unknown>[] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/** Runs the demo host with one CGP fixture after `--`; resolves with its exit code and output. */
async function demo(hostFlags: string[], providerFlags: string[]) {
  const record = join(dir, "received.ndjson");
  const args = [
    hostCli,
    "--consent-file",
    join(dir, "consent.jsonl"),
    "--receipts-file",
    join(dir, "receipts.jsonl"),
    "--json",
    ...hostFlags,
    "how does the retry loop give up",
    "--",
    `graph=${process.execPath}`,
    CGP_PROVIDER,
    "--name",
    "graph",
    "--record",
    record,
    ...providerFlags,
  ];
  const outcome = await run(process.execPath, args, { timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { ...outcome, received: lines(record) };
}

describe("ocp-demo-host --family", () => {
  it("--family contextgraph speaks contextgraph/1.0-draft and composes the frames it gets", async () => {
    const { code, stdout, received } = await demo(["--family", "contextgraph"], []);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.composed.text).toContain("Content of a from graph");
    expect(received[0]).toEqual({ type: "handshake", protocol_version: "contextgraph/1.0-draft" });
  });

  it("--family contextgraph,ocp reaches an ocp/1-only provider after it refuses contextgraph/1", async () => {
    const { code, received } = await demo(["--family", "contextgraph,ocp"], ["--accepts", "ocp"]);
    expect(code).toBe(0);
    const offered = received.filter((e) => e.type === "handshake").map((e) => e.protocol_version);
    expect(offered).toEqual(["contextgraph/1.0-draft", "ocp/1.0-draft"]);
  });

  it("the default family stays ocp/1: a contextgraph-only provider refuses it and is reported not started", async () => {
    const { code, stderr } = await demo([], []);
    expect(code).toBe(1);
    expect(stderr).toContain("incompatible_version");
  });

  it("C6: without --grant a provider's off-machine scopes are refused by name and it receives no query; --grant writes one receipt per scope", async () => {
    const scoped = ["--egress", "--scopes", "local-only,third-party-model"];
    const refused = await demo(["--family", "contextgraph"], scoped);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("no consent for egress scopes third-party-model");
    const failure = JSON.parse(refused.stdout).failures[0];
    expect(failure).toMatchObject({ reason: "consent_scope_required" });
    expect(failure.message).toContain("third-party-model");
    expect(refused.received.map((e) => e.type)).not.toContain("query");
    const granted = await demo(["--family", "contextgraph", "--grant", "graph"], scoped);
    expect(granted.code).toBe(0);
    expect(granted.received.map((e) => e.type)).toContain("query");
    const receipts = lines(join(dir, "receipts.jsonl"));
    expect(receipts).toEqual([
      expect.objectContaining({
        record: "grant",
        provider_id: "graph",
        scope: "third-party-model",
      }),
    ]);
  });

  it("B4: a provider flooding past max_frames is dropped whole, and the run says so", async () => {
    const { code, stdout } = await demo(
      ["--family", "contextgraph", "--max-frames", "2"],
      ["--mode", "flood"],
    );
    expect(code).toBe(3);
    const report = JSON.parse(stdout);
    expect(report.composed.included).toEqual([]);
    expect(JSON.stringify(report)).toContain("B4");
  });

  it("F5 bytes: with --trust-root a provenance digest that does not match the file's bytes drops the answer", async () => {
    const file = join(dir, "net.rs");
    writeFileSync(file, "one\ntwo\nthree\n");
    const honest = await demo(["--family", "contextgraph", "--trust-root", dir], ["--file", file]);
    expect(honest.code).toBe(0);
    const lying = await demo(
      ["--family", "contextgraph", "--trust-root", dir],
      ["--file", file, "--file-lie"],
    );
    expect(lying.code).toBe(3);
    expect(JSON.parse(lying.stdout).liars[0].message).toContain("does not match the bytes of");
  });

  it("refuses an unknown --family value as bad usage", async () => {
    const { code, stderr } = await demo(["--family", "mcp"], []);
    expect(code).toBe(2);
    expect(stderr).toContain('"mcp" is not ocp or contextgraph');
  });
});
