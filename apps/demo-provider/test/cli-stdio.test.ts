import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type StdioProvider, spawnStdioProvider } from "@ocp/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let dir: string;
let provider: StdioProvider;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-cli-"));
  mkdirSync(join(dir, "docs"));
  writeFileSync(
    join(dir, "docs", "guide.md"),
    "# Guide\n\nIntro.\n\n## Retry policy\n\nRetries double backoff_ms after each attempt,\nup to max_attempts.\n\n## Logging\n\nLogs go to stderr.\n",
  );
  writeFileSync(
    join(dir, "retry.ts"),
    "export function retry(attempts: number) {\n  return attempts * 2;\n}\n",
  );
  provider = await spawnStdioProvider({ id: "demo", command: process.execPath, args: [cli, dir] });
}, 30_000);

afterAll(async () => {
  await provider?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe("ocp-demo-provider over stdio", () => {
  it("announces itself truthfully: local, read-only, no egress", () => {
    expect(provider.info).toEqual({
      name: "ocp-demo-provider",
      version: "0.1.0",
      data_flow: { reads: true, writes: false, egress: false },
    });
    expect(provider.capabilities.query.kinds).toEqual(["doc", "symbol", "snippet"]);
  });

  it("answers with cited frames whose digests match the lines of the files they cite", async () => {
    const result = await provider.query({
      goal: "what is the retry policy?",
      kinds: [],
      anchors: [],
      max_frames: 3,
      max_tokens: 500,
    });
    expect(result.frames.length).toBeGreaterThan(0);
    expect(result.frames[0]?.citation_label).toBe("docs/guide.md L5-9");
    for (const frame of result.frames) {
      const provenance = frame.provenance[0]!;
      const [, start, end] = /^L(\d+)-(\d+)$/.exec(provenance.range!)!.map(Number);
      const lines = readFileSync(fileURLToPath(provenance.uri!), "utf8").split("\n");
      const served = lines.slice(start! - 1, end).join("\n");
      expect(provenance.digest).toBe(`sha256:${createHash("sha256").update(served).digest("hex")}`);
    }
  });

  it("keeps its stdout for the protocol: the indexing summary went to stderr", () => {
    expect(provider.stderr()).toMatch(/indexed 2 files .* into \d+ frames/);
  });

  it("reports an unsupported kind as a typed provider error and keeps serving", async () => {
    await expect(
      provider.query({ goal: "x", kinds: ["episode"], anchors: [], max_frames: 1, max_tokens: 10 }),
    ).rejects.toMatchObject({ code: "provider_error" });
    const again = await provider.query({
      goal: "logging",
      kinds: ["doc"],
      anchors: [],
      max_frames: 1,
      max_tokens: 100,
    });
    expect(again.frames[0]?.title).toBe("Logging");
  });
});

describe("ocp-demo-provider usage", () => {
  it("--help documents the options and exits 0", async () => {
    const { stdout } = await run(process.execPath, [cli, "--help"]);
    for (const word of ["--http", "--host", "--token-env", "--quiet", "Usage"])
      expect(stdout).toContain(word);
  });

  it("exits 2 on an unknown option, a bad port or a missing path", async () => {
    for (const args of [["--nope"], ["--http", "seventy"], ["/no/such/path/for/ocp"]]) {
      await expect(run(process.execPath, [cli, ...args])).rejects.toMatchObject({ code: 2 });
    }
  });
});
