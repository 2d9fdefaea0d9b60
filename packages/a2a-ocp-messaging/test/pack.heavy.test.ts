import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * What a user gets: `pnpm pack` of @ocp/types and @ocp/a2a-ocp-messaging
 * (workspace and catalog ranges rewritten to versions), installed with npm
 * from the registry into a new project outside the workspace. The project
 * signs and verifies messages, and its node_modules holds the message layer's
 * dependencies only: no native module, no express, no NATS client, no SQLite.
 * Heavy tier: it installs zod and @noble/* from the network.
 */

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const workspaceRoot = fileURLToPath(new URL("../../..", import.meta.url));
const packed = ["packages/types", "packages/a2a-ocp-messaging"];
/** Exactly the packages the install may bring: the two tarballs and their dependencies. */
const expectedPackages = [
  "@noble/ed25519",
  "@noble/hashes",
  "@ocp/a2a-ocp-messaging",
  "@ocp/types",
  "zod",
];
/** What test/pack/consumer.mjs prints, whichever Ed25519 library verifies. */
const CONSUMER_OUTCOMES = {
  profileSchema: true,
  verify: "ok",
  verifyNative: "ok",
  verifyTampered: "signature_invalid",
  accepted: "ok",
  replayed: "replay_detected",
  decrypted: "approve",
};
const forbiddenPackages = /^(express|better-sqlite3|@nats-io\/.*|ws|fastify)$/;

/**
 * The environment without what `pnpm run`/`pnpm exec` set for pnpm itself,
 * NODE_PATH included: pnpm's bin shims point it at the workspace's hoisted
 * packages, through which `require` in the project would find what the
 * project never installed.
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (
      /^(npm_package_|npm_lifecycle_|pnpm_)/i.test(key) ||
      key === "npm_config_user_agent" ||
      key === "NODE_PATH"
    ) {
      delete env[key];
    }
  }
  return env;
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    env: npmEnvironment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

interface Installed {
  name: string;
  dir: string;
  manifest: Record<string, unknown>;
}

/** Every package under `node_modules`, nested ones included. */
function installedPackages(nodeModules: string): Installed[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name.startsWith(".")) return [];
    const dir = join(nodeModules, entry.name);
    const dirs = entry.name.startsWith("@")
      ? readdirSync(dir, { withFileTypes: true })
          .filter((scoped) => scoped.isDirectory())
          .map((scoped) => join(dir, scoped.name))
      : [dir];
    return dirs.flatMap((packageRoot) => {
      const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
      return [
        { name: manifest.name as string, dir: packageRoot, manifest },
        ...installedPackages(join(packageRoot, "node_modules")),
      ];
    });
  });
}

/** Files that make a native module: a node-gyp build file or a compiled addon. */
function nativeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return nativeFiles(path);
    return entry.isFile() && (entry.name.endsWith(".node") || entry.name === "binding.gyp")
      ? [path]
      : [];
  });
}

describe("the packed tarball in a project outside the workspace", () => {
  let project: string;
  let tarballs: string[];

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "ocp-messaging-pack-"));
    const fromWorkspace = relative(workspaceRoot, project);
    expect(fromWorkspace.startsWith("..") || isAbsolute(fromWorkspace)).toBe(true);
    for (const dir of packed) {
      run("pnpm", ["pack", "--pack-destination", project], join(workspaceRoot, dir));
    }
    tarballs = readdirSync(project).filter((name) => name.endsWith(".tgz"));
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "messaging-consumer", private: true, type: "module" }, null, 2)}\n`,
    );
    copyFileSync(join(packageDir, "test/pack/consumer.mjs"), join(project, "consumer.mjs"));
  }, 120_000);

  afterAll(async () => {
    if (project !== undefined) await rm(project, { recursive: true, force: true });
  });

  it("packs both packages with workspace and catalog ranges rewritten", () => {
    expect(tarballs.sort()).toEqual([
      expect.stringMatching(/^ocp-a2a-ocp-messaging-.*\.tgz$/),
      expect.stringMatching(/^ocp-types-.*\.tgz$/),
    ]);
    for (const tarball of tarballs) {
      const manifest = run("tar", ["-xzOf", tarball, "package/package.json"], project);
      expect(manifest, tarball).not.toMatch(/"(workspace|catalog):/);
    }
  });

  it("installs with npm, signs and verifies, and brings no native module, express, NATS or SQLite", () => {
    run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--no-package-lock", ...tarballs.map((t) => `./${t}`)],
      project,
    );
    const output = run(process.execPath, ["consumer.mjs"], project);
    expect(JSON.parse(output)).toEqual({ ...CONSUMER_OUTCOMES, library: "openssl" });

    const nodeModules = join(project, "node_modules");
    const installed = installedPackages(nodeModules);
    const names = installed.map((pkg) => pkg.name);
    expect(names.filter((name) => forbiddenPackages.test(name))).toEqual([]);
    expect(nativeFiles(nodeModules)).toEqual([]);
    const buildsOnInstall = installed.filter((pkg) => {
      const scripts = (pkg.manifest["scripts"] ?? {}) as Record<string, string>;
      return (
        pkg.manifest["gypfile"] === true ||
        ["preinstall", "install", "postinstall"].some((s) => s in scripts)
      );
    });
    expect(buildsOnInstall.map((pkg) => pkg.name)).toEqual([]);
    expect([...new Set(names)].sort()).toEqual(expectedPackages);
  }, 300_000);

  it("with the optional peer sodium-native installed beside it, verifies with libsodium, same answers", () => {
    run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--no-package-lock", "sodium-native"],
      project,
    );
    const output = run(process.execPath, ["consumer.mjs"], project);
    expect(JSON.parse(output)).toEqual({ ...CONSUMER_OUTCOMES, library: "libsodium" });
  }, 300_000);
});
