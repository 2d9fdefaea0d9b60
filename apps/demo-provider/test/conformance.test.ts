import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const inspect = fileURLToPath(
  new URL("../../../packages/conformance/dist/cli.js", import.meta.url),
);
let dir: string;
let http: ChildProcess;
let url: string;

interface InspectReport {
  conformant: boolean;
  checks: Array<{ name: string; status: string; evidence: string }>;
  probe?: {
    max_tokens: number;
    frames: Array<{ token_cost: number; citation_label?: string }>;
  };
}

const repo = fileURLToPath(new URL("../../../", import.meta.url));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-conformance-"));
  writeFileSync(
    join(dir, "retry.md"),
    "# Retry policy\n\nEach failed call is retried with exponential backoff.\n\n## Limits\n\nAt most five attempts.\n",
  );
  writeFileSync(
    join(dir, "retry.ts"),
    "export function backoff(attempt: number): number {\n  return 100 * 2 ** attempt;\n}\n",
  );
  http = spawn(process.execPath, [cli, "--http", "0", dir], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    http.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    http.once("exit", (code) => reject(new Error(`HTTP provider exited with ${code}: ${seen}`)));
  });
});

afterAll(() => {
  http?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the built `ocp-inspect <transport> <flags> --json --query <query> <target>`; its JSON report. */
async function inspectJson(
  transport: "stdio" | "http",
  flags: readonly string[],
  query: string,
  target: readonly string[],
): Promise<string> {
  const args = [inspect, transport, ...flags, "--json", "--query", query, ...target];
  const { stdout } = await run(process.execPath, args);
  return stdout;
}

/** The demo provider's CLI over stdio, serving `paths`, as `ocp-inspect stdio`'s command. */
const demo = (...paths: string[]) => ["--", process.execPath, cli, "--quiet", ...paths];

function expectConformant(stdout: string): void {
  const report = JSON.parse(stdout) as InspectReport;
  expect(report.checks.filter((check) => check.status === "fail")).toEqual([]);
  expect(report.conformant).toBe(true);
}

describe("ocp-inspect --strict against the demo provider's CLI", () => {
  it("is conformant over stdio, every check including the advisory ones", async () => {
    const stdout = await inspectJson("stdio", ["--strict"], "retry backoff", demo(dir));
    expectConformant(stdout);
  });

  it("with --max-tokens 600 over this repository's README and docs: conformant, with cited frames", async () => {
    const stdout = await inspectJson(
      "stdio",
      ["--strict", "--max-tokens", "600"],
      "How is consent for an egress provider recorded and revoked?",
      demo(join(repo, "README.md"), join(repo, "docs")),
    );
    expectConformant(stdout);
    const { probe } = JSON.parse(stdout) as InspectReport;
    expect(probe?.max_tokens).toBe(600);
    expect(probe?.frames.length).toBeGreaterThan(0);
    expect(probe!.frames.reduce((n, f) => n + f.token_cost, 0)).toBeLessThanOrEqual(600);
    for (const frame of probe!.frames) {
      expect(frame.citation_label).toMatch(/^(README\.md|docs\/[\w./-]+) L\d+(-\d+)?$/);
    }
  });

  it("is conformant over HTTP", async () => {
    const stdout = await inspectJson("http", ["--strict"], "retry backoff", [url]);
    expectConformant(stdout);
    const report = JSON.parse(stdout) as InspectReport;
    // R1 is probed over HTTP too: five malformed requests, each a 4xx bad_request.
    expect(report.checks.find((c) => c.name === "malformed-input-tolerance")?.evidence).toMatch(
      /^refused 5 malformed requests with well-formed bad_request errors \(HTTP 400\)/,
    );
  });
});

describe("ocp-inspect --family contextgraph against the demo provider's CLI (upstream's checks)", () => {
  const CGP = ["--family", "contextgraph"];
  const cgpChecks = [
    "handshake",
    "frame-validity",
    "budget-honesty",
    "shutdown-clean",
    "malformed-input-tolerance",
    "correlation",
    "consent-scope",
    "verify-honesty",
    "as-of-temporal",
    "embedding-fingerprint",
  ];

  function expectCgpConformant(stdout: string): void {
    expectConformant(stdout);
    const report = JSON.parse(stdout) as InspectReport & { family?: string };
    expect(report.family).toBe("contextgraph/1");
    const names = report.checks.map((check) => check.name);
    for (const name of cgpChecks) expect(names, name).toContain(name);
  }

  it("is conformant over stdio: every upstream check, B3 costs, sha256 digests, verify", async () => {
    const stdout = await inspectJson("stdio", CGP, "retry backoff", demo(dir));
    expectCgpConformant(stdout);
  });

  it("is conformant over HTTP", async () => {
    const stdout = await inspectJson("http", CGP, "retry backoff", [url]);
    expectCgpConformant(stdout);
  });
});
