import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// Parsing every module of the workspace with the TypeScript parser, several times.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

/**
 * The workspace-wide layering rules live in scripts/check-layers.mjs (layer
 * order, declared dependencies, portable code, optional peers, the host
 * without fastify, module length). This test runs it on the workspace, then
 * breaks each rule in a copy of the workspace's sources and expects the
 * checker to name exactly the broken rule.
 */

const root = fileURLToPath(new URL("../../..", import.meta.url));
const script = join(root, "scripts", "check-layers.mjs");

interface CheckResult {
  packages: number;
  files: number;
  violations: string[];
}
const { checkLayers } = (await import(pathToFileURL(script).href)) as {
  checkLayers: (options: { root: string }) => CheckResult;
};

describe("the workspace", () => {
  it("keeps every layering rule", () => {
    const result = checkLayers({ root });
    expect(result.violations).toEqual([]);
    expect(result.packages).toBeGreaterThanOrEqual(14);
    expect(result.files).toBeGreaterThan(150);
  });
});

/** Copies pnpm-workspace.yaml and every workspace package's package.json and src/. */
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

interface Case {
  rule: string;
  /** Files to write (created, or replaced), relative to the workspace root. */
  write?: Record<string, string>;
  /** Edits of existing files. */
  edit?: Record<string, (text: string) => string>;
  expected: (string | RegExp)[];
}

const addDependency =
  (name: string, field = "dependencies") =>
  (text: string) => {
    const manifest = JSON.parse(text);
    manifest[field] = { ...manifest[field], [name]: "*" };
    return JSON.stringify(manifest);
  };

/** What loading the hub's src/nats/connect.ts from `file` reports: each NATS package it loads. */
const natsLoadedBy = (file: string) =>
  ["jetstream", "kv", "transport-node"].map(
    (name) =>
      new RegExp(
        `^${file}:1: loads optional peer @nats-io/${name} \\(through packages/a2a-ocp-hub/src/nats/connect\\.ts( → [^)]*)?\\) outside src/nats/\\*\\*$`,
      ),
  );

const cases: Case[] = [
  {
    rule: "portable code imports no node: module",
    write: { "packages/a2a-ocp-messaging/src/bad.ts": 'import { readFile } from "node:fs";\n' },
    expected: ['packages/a2a-ocp-messaging/src/bad.ts:1: portable code imports "node:fs"'],
  },
  {
    rule: "portable code imports nothing from src/node",
    write: { "packages/a2a-ocp-messaging/src/bad.ts": 'export * from "./node/ed25519.js";\n' },
    expected: [
      'packages/a2a-ocp-messaging/src/bad.ts:1: portable code imports "./node/ed25519.js"',
    ],
  },
  {
    rule: "portable code imports only zod, @noble/* and @ocp/types, even when declared",
    write: { "packages/a2a-ocp-messaging/src/bad.ts": 'import type { WebSocket } from "ws";\n' },
    edit: { "packages/a2a-ocp-messaging/package.json": addDependency("ws") },
    expected: ['packages/a2a-ocp-messaging/src/bad.ts:1: portable code imports "ws"'],
  },
  {
    rule: "@ocp/types is portable too",
    write: { "packages/types/src/bad.ts": 'export const env = () => import("node:process");\n' },
    expected: ['packages/types/src/bad.ts:1: portable code imports "node:process"'],
  },
  {
    rule: "arrows go downward only",
    write: { "packages/transport-ws/src/bad.ts": 'import "@ocp/a2a-ocp-messaging";\n' },
    edit: { "packages/transport-ws/package.json": addDependency("@ocp/a2a-ocp-messaging") },
    expected: [
      "packages/transport-ws/src/bad.ts:1: imports @ocp/a2a-ocp-messaging (layer 2) from layer 1",
    ],
  },
  {
    rule: "the hub and the agent do not import each other",
    write: {
      "packages/a2a-ocp-agent/src/bad.ts": 'export type { OCPHub } from "@ocp/a2a-ocp-hub";\n',
    },
    edit: { "packages/a2a-ocp-agent/package.json": addDependency("@ocp/a2a-ocp-hub") },
    expected: [
      "packages/a2a-ocp-agent/src/bad.ts:1: imports @ocp/a2a-ocp-hub (layer 4) from layer 4",
    ],
  },
  {
    rule: "every bare import is a declared dependency (export-from included)",
    write: { "packages/transport-stdio/src/bad.ts": 'export { z } from "zod";\n' },
    expected: [
      'packages/transport-stdio/src/bad.ts:1: imports "zod", which package.json does not declare',
    ],
  },
  {
    rule: "no devDependency-only import from src, type-only ones included",
    write: { "packages/a2a-ocp-hub/src/bad.ts": 'import type { WebSocket } from "ws";\n' },
    expected: ['packages/a2a-ocp-hub/src/bad.ts:1: imports "ws", which is only a devDependency'],
  },
  {
    rule: "Node built-ins are imported as node:",
    write: { "packages/a2a-ocp-hub/src/bad.ts": 'import { readFileSync } from "fs";\n' },
    expected: ['packages/a2a-ocp-hub/src/bad.ts:1: imports "fs": write "node:fs"'],
  },
  {
    rule: "better-sqlite3 is imported only under the agent's src/sqlite",
    write: { "packages/a2a-ocp-agent/src/bad.ts": 'import Database from "better-sqlite3";\n' },
    expected: [
      'packages/a2a-ocp-agent/src/bad.ts:1: imports optional peer "better-sqlite3" outside src/sqlite/**',
    ],
  },
  {
    rule: "nothing outside the agent's src/sqlite loads it",
    write: { "packages/a2a-ocp-agent/src/bad.ts": 'export * from "./sqlite/index.js";\n' },
    expected: [
      /^packages\/a2a-ocp-agent\/src\/bad\.ts:1: loads optional peer better-sqlite3 \(through packages\/a2a-ocp-agent\/src\/sqlite\/index\.ts → .*\) outside src\/sqlite\/\*\*$/,
    ],
  },
  {
    rule: "a package loading another's optional peer declares it",
    write: { "packages/a2a-compat/src/bad.ts": 'import "@ocp/a2a-ocp-agent/sqlite";\n' },
    expected: [
      /^packages\/a2a-compat\/src\/bad\.ts:1: loads better-sqlite3 \(through .*\), an optional peer of @ocp\/a2a-ocp-agent that @ocp\/a2a-compat does not declare$/,
    ],
  },
  {
    rule: "the hub's CLI loads the NATS code lazily only",
    edit: { "packages/a2a-ocp-hub/src/cli.ts": (text) => `import "./nats/connect.js";\n${text}` },
    expected: natsLoadedBy("packages/a2a-ocp-hub/src/cli.ts"),
  },
  {
    rule: "no other hub module loads the NATS code, lazily or not",
    write: {
      "packages/a2a-ocp-hub/src/bad.ts": 'export const nats = () => import("./nats/connect.js");\n',
    },
    expected: natsLoadedBy("packages/a2a-ocp-hub/src/bad.ts"),
  },
  {
    rule: "the hub reaches up to its dashboard plug-in only from src/cli-dashboard.ts",
    write: {
      "packages/a2a-ocp-hub/src/bad.ts":
        'export const d = () => import("@ocp/a2a-ocp-dashboard");\n',
    },
    expected: [
      "packages/a2a-ocp-hub/src/bad.ts:1: imports @ocp/a2a-ocp-dashboard (layer 5) from layer 4",
      'packages/a2a-ocp-hub/src/bad.ts:1: imports optional peer "@ocp/a2a-ocp-dashboard" outside src/cli-dashboard.ts',
    ],
  },
  {
    rule: "express is imported (dynamically too) only by the A2A server entry",
    write: { "packages/a2a-compat/src/bad.ts": 'export const load = () => import("express");\n' },
    expected: [
      'packages/a2a-compat/src/bad.ts:1: imports optional peer "express" outside src/server.ts, src/server-entry.ts',
    ],
  },
  {
    rule: "the A2A root entry does not load the server",
    edit: { "packages/a2a-compat/src/index.ts": (text) => `import "./server.js";\n${text}` },
    expected: [
      "packages/a2a-compat/src/index.ts:1: loads optional peer express (through packages/a2a-compat/src/server.ts) outside src/server.ts, src/server-entry.ts",
    ],
  },
  {
    rule: "the host imports only @ocp/transport-http/client, which never loads fastify",
    write: { "packages/host/src/bad.ts": 'import "@ocp/transport-http";\n' },
    expected: [
      'packages/host/src/bad.ts:1: imports "@ocp/transport-http"; @ocp/host may import only @ocp/transport-http/client',
      /^packages\/host\/src\/bad\.ts:1: loads fastify \(through packages\/transport-http\/src\/index\.ts → .*\), which @ocp\/host must never load$/,
    ],
  },
  {
    rule: "the host's client entry of @ocp/transport-http does not load fastify",
    edit: {
      "packages/transport-http/src/client-entry.ts": (text) => `import "./server.js";\n${text}`,
    },
    expected: [
      /^packages\/host\/src\/[\w-]+\.ts:\d+: loads fastify \(through packages\/transport-http\/src\/client-entry\.ts → packages\/transport-http\/src\/server\.ts\), which @ocp\/host must never load$/,
    ],
  },
  {
    rule: "the host never imports fastify, even declared",
    write: { "packages/host/src/bad.ts": 'import type { FastifyInstance } from "fastify";\n' },
    edit: { "packages/host/package.json": addDependency("fastify") },
    expected: ['packages/host/src/bad.ts:1: imports "fastify", which @ocp/host must never load'],
  },
  {
    rule: "workspace imports go through exported entries",
    write: { "packages/a2a-ocp-hub/src/bad.ts": 'import "@ocp/a2a-ocp-messaging/dist/json.js";\n' },
    expected: [
      'packages/a2a-ocp-hub/src/bad.ts:1: imports "@ocp/a2a-ocp-messaging/dist/json.js", which @ocp/a2a-ocp-messaging does not export',
    ],
  },
  {
    rule: "no relative path into another package",
    write: { "packages/host/src/bad.ts": 'import "../../types/src/limits.js";\n' },
    expected: [
      'packages/host/src/bad.ts:1: "../../types/src/limits.js" reaches into another package: import it by name',
    ],
  },
  {
    rule: "every import can be checked",
    write: { "packages/host/src/bad.ts": "export const load = (name: string) => import(name);\n" },
    expected: [
      "packages/host/src/bad.ts:1: dynamic import without a string literal cannot be checked",
    ],
  },
  {
    rule: "every module stays under 400 lines",
    write: { "packages/a2a-ocp-client/src/bad.ts": "export {};\n".repeat(401) },
    expected: ["packages/a2a-ocp-client/src/bad.ts:1: has 401 lines (at most 400)"],
  },
  {
    rule: "a module already over 400 lines does not grow",
    edit: { "packages/transport-ws/src/client.ts": (text) => `\n\n${text}` },
    expected: [/^packages\/transport-ws\/src\/client\.ts:1: has \d+ lines \(at most \d+\)$/],
  },
  {
    rule: "every package has a place in the layer order",
    write: { "packages/extra/package.json": '{ "name": "@ocp/extra" }\n' },
    expected: ["packages/extra/package.json: @ocp/extra is not in the layer order (LAYERS)"],
  },
  {
    rule: "every optional peer has its files",
    edit: {
      "packages/transport-ws/package.json": (text) => {
        const manifest = JSON.parse(text);
        manifest.peerDependencies = { bufferutil: "*" };
        manifest.peerDependenciesMeta = { bufferutil: { optional: true } };
        return JSON.stringify(manifest);
      },
    },
    expected: [
      "packages/transport-ws/package.json: optional peer bufferutil has no entry in OPTIONAL_PEERS",
    ],
  },
];

describe("scripts/check-layers.mjs fails when a rule is broken", () => {
  let copy: string;
  /** Files a case changed, with what to put back (`undefined`: remove). */
  const touched = new Map<string, string | undefined>();

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), "ocp-layers-"));
    copyWorkspace(copy);
  });

  afterEach(() => {
    for (const [path, text] of touched) {
      if (text === undefined) rmSync(path, { force: true });
      else writeFileSync(path, text);
    }
    touched.clear();
  });

  afterAll(() => {
    if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
  });

  function change(relativePath: string, text: (before: string | undefined) => string): void {
    const path = join(copy, relativePath);
    const before = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    if (!touched.has(path)) touched.set(path, before);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text(before));
  }

  it("finds nothing in the unchanged copy", () => {
    expect(checkLayers({ root: copy }).violations).toEqual([]);
  });

  it.each(cases)("$rule", ({ write = {}, edit = {}, expected }) => {
    for (const [path, text] of Object.entries(write)) change(path, () => text);
    for (const [path, edited] of Object.entries(edit)) change(path, (before) => edited(before!));
    const { violations } = checkLayers({ root: copy });
    expect(violations).toEqual(
      expected.map((line) => (typeof line === "string" ? line : expect.stringMatching(line))),
    );
  });

  it("node scripts/check-layers.mjs prints each broken rule and exits 1", () => {
    change("packages/types/src/bad.ts", () => 'import "node:fs";\n');
    const run = spawnSync(process.execPath, [script, copy], { encoding: "utf8" });
    expect(run.stderr).toBe('packages/types/src/bad.ts:1: portable code imports "node:fs"\n');
    expect(run.stdout).toMatch(
      /^check-layers: \d+ packages, \d+ modules, 1 broken rule\(s\); root exports of \d+ published packages, 0 over budget\n$/,
    );
    expect(run.status).toBe(1);
  });

  it("finds nothing once every case is undone", () => {
    expect(checkLayers({ root: copy }).violations).toEqual([]);
  });
});
