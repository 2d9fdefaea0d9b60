import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Type-checking every published package's root entry from its sources, a few times.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

/**
 * Every published package's root entry is held to a budget of exports
 * (scripts/export-budget.json), measured by scripts/export-surface.mjs and
 * enforced by scripts/check-layers.mjs. These tests measure the workspace,
 * then grow a root past its budget in a copy and expect the check to name
 * the package and the new names.
 */

const root = fileURLToPath(new URL("../../..", import.meta.url));
const surfaceScript = join(root, "scripts", "export-surface.mjs");
const layersScript = join(root, "scripts", "check-layers.mjs");

interface Surface {
  name: string;
  runtime: string[];
  types: string[];
}
interface BudgetEntry {
  why: string;
  runtime: { max: number; names: string[] };
  types: { max: number; names: string[] };
}
type Budget = Record<string, BudgetEntry>;
const { rootExports, checkExportBudget } = (await import(pathToFileURL(surfaceScript).href)) as {
  rootExports: (options: { root: string }) => Surface[];
  checkExportBudget: (options: { root: string; budget?: Budget; surfaces?: Surface[] }) => {
    packages: number;
    problems: string[];
  };
};
const budget = JSON.parse(
  readFileSync(join(root, "scripts", "export-budget.json"), "utf8"),
) as Budget;

let surfaces: Surface[];
beforeAll(() => {
  surfaces = rootExports({ root });
});

describe("the workspace's root entries", () => {
  it("every published package's root is within its budget", () => {
    const result = checkExportBudget({ root, surfaces });
    expect(result.problems).toEqual([]);
    expect(result.packages).toBeGreaterThanOrEqual(14);
  });

  it("every budget entry says why its package needs that surface", () => {
    for (const [name, entry] of Object.entries(budget)) {
      if (name.startsWith("$")) continue;
      expect(entry.why.length, name).toBeGreaterThan(20);
      expect(entry.runtime.names.length, name).toBeLessThanOrEqual(entry.runtime.max);
    }
  });

  it("counts values as runtime names and interfaces, aliases and `export type` as type names", () => {
    const messaging = surfaces.find((pkg) => pkg.name === "@ocp/a2a-ocp-messaging");
    expect(messaging?.runtime).toEqual(
      expect.arrayContaining(["createMessage", "InboundPipeline", "LIMITS", "OcpError"]),
    );
    expect(messaging?.types).toEqual(
      expect.arrayContaining(["PlainMessage", "AgentIdentity", "CollectiveQueryPayload"]),
    );
    expect(messaging?.runtime).not.toContain("PlainMessage");
  });

  it("the hub's wire frames and the loose limit constants are not in messaging's root", () => {
    const messaging = surfaces.find((pkg) => pkg.name === "@ocp/a2a-ocp-messaging");
    for (const name of ["HUB_TYPES", "encodeHubControl", "MAX_MESSAGE_BYTES", "MAX_TTL_SECONDS"]) {
      expect(messaging?.runtime).not.toContain(name);
    }
    const agent = surfaces.find((pkg) => pkg.name === "@ocp/a2a-ocp-agent");
    for (const name of ["Waiters", "tally", "SYNC_PAGE_ITEMS"]) {
      expect(agent?.runtime).not.toContain(name);
    }
  });

  it("a published package without a budget entry fails", () => {
    const { "@ocp/team-context": _dropped, ...rest } = budget;
    const result = checkExportBudget({ root, budget: rest, surfaces });
    expect(result.problems).toEqual([
      "@ocp/team-context: no root-export budget in scripts/export-budget.json",
    ]);
  });
});

/** Copies pnpm-workspace.yaml, the budget, and every workspace package's package.json and src/. */
function copyWorkspace(target: string): void {
  cpSync(root, target, {
    recursive: true,
    filter: (source) => {
      const parts = relative(root, source).split(sep);
      if (parts[0] === "") return true;
      if (parts.length === 1)
        return ["pnpm-workspace.yaml", "packages", "apps", "tools", "scripts"].includes(parts[0]!);
      if (parts[0] === "scripts") return parts[1] === "export-budget.json";
      if (parts.length === 2) return !parts[1]!.includes(".");
      return parts[2] === "src" || (parts.length === 3 && parts[2] === "package.json");
    },
  });
}

describe("a root grown past its budget", () => {
  let copy: string;
  beforeAll(() => {
    const base = join(tmpdir(), "ocp-export-budget");
    mkdirSync(base, { recursive: true });
    copy = mkdtempSync(join(base, "ws-"));
    copyWorkspace(copy);
    appendFileSync(
      join(copy, "packages", "a2a-ocp-hub", "src", "index.ts"),
      [
        'export { isDurable } from "./router.js";',
        "export const sneakyHelper = (): number => 1;",
        "export interface SneakyShape {",
        "  readonly size: number;",
        "}",
        "",
      ].join("\n"),
    );
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it("node scripts/check-layers.mjs exits 1, naming the package and exactly the names its budget does not list", () => {
    const run = spawnSync(process.execPath, [layersScript, copy], { encoding: "utf8" });
    expect(run.status).toBe(1);
    const hub = budget["@ocp/a2a-ocp-hub"]!;
    const advice =
      "(move them to a subpath, or raise the budget in scripts/export-budget.json and say why)";
    const problems = [
      `@ocp/a2a-ocp-hub: ${hub.runtime.names.length + 2} runtime root exports, budget ${hub.runtime.max}; new: isDurable, sneakyHelper ${advice}`,
      `@ocp/a2a-ocp-hub: ${hub.types.names.length + 1} type root exports, budget ${hub.types.max}; new: SneakyShape ${advice}`,
    ];
    expect(run.stderr.split("\n").filter((line) => line.includes("root exports"))).toEqual(
      problems,
    );
    expect(run.stdout).toContain("2 over budget");
  });
});
