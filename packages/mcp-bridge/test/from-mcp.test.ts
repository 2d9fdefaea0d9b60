import { readFileSync } from "node:fs";
import type { StdioProvider } from "@ocp/transport-stdio";
import { isOcpError, totalTokenCost } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { fromMcpCli, inspectBridge, notesServer, run, SLOW, spawnBridge } from "./helpers.js";

const open: StdioProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((provider) => provider.shutdown()));
});

const bridge = (...flags: string[]) =>
  spawnBridge([...flags, "--", process.execPath, notesServer, "--traps"], open);

const ask = (goal: string, max_tokens = 4096, max_frames = 8) => ({
  goal,
  kinds: [],
  anchors: [],
  max_tokens,
  max_frames,
});

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isOcpError(error)).toBe(true);
  return (error as Error).message;
}

describe("ocp-from-mcp", () => {
  it(
    "H1-H3, F1-F3, B1, T1, R1, R2: ocp-inspect --strict passes an MCP server bridged over stdio",
    async () => {
      const stdout = await inspectBridge(["--", process.execPath, notesServer]);
      expect(stdout).toContain("CONFORMANT");
      expect(stdout).toContain("ocp-from-mcp/notes-server");
    },
    SLOW,
  );

  it(
    "ranks resources by the goal and serves them as cited frames with the resource URI and MCP provenance",
    async () => {
      const provider = await bridge();
      expect(provider.info.name).toBe("ocp-from-mcp/notes-server");
      expect(provider.info.data_flow.egress).toBe(false);
      const result = await provider.query(ask("consent for egress"));
      const first = result.frames[0]!;
      expect(first.uri).toBe("note://consent");
      expect(first.citation_label).toBe("consent");
      expect(first.title).toBe("Consent for egress providers");
      expect(first.score).toBe(1);
      expect(first.provenance[0]).toMatchObject({
        type: "mcp_resource",
        uri: "note://consent",
        method: "resources/read",
      });
      expect(first.provenance[0]!.by).toContain("notes-server");
    },
    SLOW,
  );

  it(
    "B1, M1: respects max_tokens and max_frames, and says it truncated",
    async () => {
      const provider = await bridge();
      const wide = await provider.query(ask("budgets consent citations"));
      expect(wide.frames.length).toBeGreaterThan(1);
      const one = await provider.query(ask("budgets consent citations", 4096, 1));
      expect(one.frames).toHaveLength(1);
      expect(one.truncated).toBe(true);
      const budget = wide.frames[0]!.token_cost;
      const tight = await provider.query(ask("budgets consent citations", budget));
      expect(totalTokenCost(tight)).toBeLessThanOrEqual(budget);
      expect(tight.truncated).toBe(true);
    },
    SLOW,
  );

  it(
    "passes the goal to a named tool and serves each result item as a frame",
    async () => {
      const provider = await bridge("--tool", "search_notes");
      const result = await provider.query(ask("citations"));
      expect(result.frames).toHaveLength(1);
      expect(result.frames[0]).toMatchObject({
        uri: "note://citations",
        citation_label: "search_notes result 1",
      });
      expect(result.frames[0]!.provenance[0]).toMatchObject({
        type: "mcp_tool",
        method: "tools/call search_notes",
      });
    },
    SLOW,
  );

  it(
    "an MCP server that crashes gives mcp_crashed, and the next query starts it again",
    async () => {
      const provider = await bridge();
      expect(await failure(provider.query(ask("crash")))).toMatch(
        /mcp_crashed: MCP server .*closed/,
      );
      const after = await provider.query(ask("token budgets"));
      expect(after.frames[0]!.uri).toBe("note://budgets");
    },
    SLOW,
  );

  it(
    "an MCP server that does not answer gives mcp_timeout, and the bridge keeps serving",
    async () => {
      const provider = await bridge("--timeout", "1500");
      expect(await failure(provider.query(ask("hang")))).toMatch(/mcp_timeout: .*did not answer/);
      const after = await provider.query(ask("token budgets"));
      expect(after.frames[0]!.uri).toBe("note://budgets");
    },
    SLOW,
  );

  it(
    "malformed MCP content gives mcp_malformed naming the failing fields, and the bridge keeps serving",
    async () => {
      const provider = await bridge();
      expect(await failure(provider.query(ask("malformed")))).toMatch(
        /mcp_malformed: .*fails the MCP schema: contents/,
      );
      const after = await provider.query(ask("token budgets"));
      expect(after.frames[0]!.uri).toBe("note://budgets");
    },
    SLOW,
  );

  it(
    "CLI: --help, --version, exit 2 on bad usage, exit 1 when the MCP server cannot start",
    async () => {
      const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
      for (const flag of ["--help", "-h"]) {
        const help = await run(process.execPath, [fromMcpCli, flag], { timeout: SLOW });
        expect(help.stdout).toContain("Usage:\n  ocp-from-mcp [options] -- COMMAND");
      }
      for (const flag of ["--version", "-v"]) {
        const version = await run(process.execPath, [fromMcpCli, flag], { timeout: SLOW });
        expect(version.stdout).toBe(`${(pkg as { version: string }).version}\n`);
      }
      // Bad usage: exit 2, one line naming the problem and a hint, not the usage text.
      const hint = '\nrun "ocp-from-mcp --help" for usage\n';
      const usage = await run(process.execPath, [fromMcpCli], { timeout: SLOW }).catch((e) => e);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toBe(
        `ocp-from-mcp: give either -- COMMAND [ARG...] or --url URL${hint}`,
      );
      const other = await run(process.execPath, [fromMcpCli, "--grant", "x", "--", "y"], {
        timeout: SLOW,
      }).catch((e) => e);
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/^ocp-from-mcp: Unknown option '--grant'[^\n]*\n/);
      expect(other.stderr.endsWith(hint)).toBe(true);
      expect(other.stderr.split("\n")).toHaveLength(3);
      const missing = await run(process.execPath, [fromMcpCli, "--", "no-such-mcp-server-cmd"], {
        timeout: SLOW,
      }).catch((e) => e);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("cannot connect to MCP server no-such-mcp-server-cmd");
    },
    SLOW,
  );
});
