import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOcpError } from "@ocp/types";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectMcpProvider, type McpProvider } from "../src/from-mcp.js";
import { MAX_STDERR_BYTES } from "../src/limits.js";
import { stderrSummary } from "../src/stderr-summary.js";
import { fromMcpCli, root, run, SLOW } from "./helpers.js";

/** Dies of an ENOENT deep in its stack, at start or on a read (see the file). */
const failingServer = join(root, "test", "fixtures", "failing-server.mjs");
const missingConfig = join(root, "test", "fixtures", "no-such-dir", "notes-config.json");
const enoent = `ENOENT: no such file or directory, open '${missingConfig}'`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ocp-from-mcp-stderr-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
const open: McpProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((provider) => provider.shutdown()));
});

describe("a failed MCP server's stderr names the cause", () => {
  it(
    "the fixture's stack trace is longer than the stderr kept at each end, with the cause on its first line",
    async () => {
      const failed = await run(process.execPath, [failingServer, "--at-start"], {
        timeout: SLOW,
      }).catch((error) => error);
      expect(failed.code).toBe(1);
      expect(failed.stderr.length).toBeGreaterThan(MAX_STDERR_BYTES);
      expect(failed.stderr.slice(-2_000)).not.toContain("no such file or directory");
    },
    SLOW,
  );

  it(
    "CLI: a server that dies at start with a long stack trace: ocp-from-mcp's one line names the missing file",
    async () => {
      const failed = await run(
        process.execPath,
        [fromMcpCli, "--", process.execPath, failingServer, "--at-start"],
        { timeout: SLOW },
      ).catch((error) => error);
      expect(failed.code).toBe(1);
      const lines = failed.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^ocp-from-mcp: cannot connect to MCP server/);
      expect(lines[0]).toContain(enoent);
      expect(lines[0]).not.toMatch(/ at loadConfig/);
    },
    SLOW,
  );

  it(
    "CLI: a server script that does not exist: the error names the missing module",
    async () => {
      const script = join(dir, "notes-server.mjs");
      const failed = await run(process.execPath, [fromMcpCli, "--", process.execPath, script], {
        timeout: SLOW,
      }).catch((error) => error);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(`Cannot find module '${script}'`);
    },
    SLOW,
  );

  it(
    "a server that dies of an uncaught error during resources/read fails the query with mcp_crashed naming the missing file",
    async () => {
      const provider = await connectMcpProvider({
        target: { kind: "stdio", command: process.execPath, args: [failingServer, "--on-read"] },
      });
      open.push(provider);
      const error = await provider
        .query({ goal: "configuration", kinds: [], anchors: [], max_tokens: 512, max_frames: 2 })
        .then(
          () => undefined,
          (reason: unknown) => reason as Error & { code?: string },
        );
      expect(isOcpError(error)).toBe(true);
      expect(error!.code).toBe("mcp_crashed");
      expect(error!.message).toContain(enoent);
    },
    SLOW,
  );
});

describe("stderrSummary", () => {
  it("keeps the exception line Python prints last, after its traceback", () => {
    const python = [
      "Traceback (most recent call last):",
      '  File "/srv/server.py", line 9, in <module>',
      "    main()",
      '  File "/srv/server.py", line 5, in main',
      '    open("/srv/notes.yaml")',
      "FileNotFoundError: [Errno 2] No such file or directory: '/srv/notes.yaml'",
      "",
    ].join("\n");
    expect(stderrSummary(python)).toBe(
      "FileNotFoundError: [Errno 2] No such file or directory: '/srv/notes.yaml'",
    );
  });

  it("shows the last two lines when no line names a cause, and nothing for blank stderr", () => {
    expect(stderrSummary("listening\nserved 3 notes\nbye\n")).toBe("served 3 notes … bye");
    expect(stderrSummary("\n  \n")).toBe("");
  });

  it("is bounded by maxChars however long the cause lines are", () => {
    const long = `Error: ${"x".repeat(5_000)}\nsomething failed: ${"y".repeat(5_000)}`;
    const summary = stderrSummary(long, 200);
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary).toMatch(/^Error: x+… … something failed: y+…$/);
  });
});
