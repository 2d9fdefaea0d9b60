/**
 * What a user meets after `npm install`: every published package is packed
 * with `pnpm pack` (as it would be published), installed with npm into a
 * directory outside the workspace (the tarballs for our packages, the npm
 * registry for everything else, and every peer a package documents), and
 * then, there:
 *
 * - every entry of every package imports;
 * - a TypeScript file importing every entry compiles with `strict` and
 *   `skipLibCheck: false`, under `nodenext` and `bundler` resolution;
 * - every package README's first code example runs as written.
 *
 * Needs every package built (the root `pnpm test` builds first) and the npm
 * registry; installing takes minutes (better-sqlite3 may build from source).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const { publishedPackages } = (await import(
  pathToFileURL(join(root, "scripts", "check-packages.mjs")).href
)) as { publishedPackages: (root: string) => string[] };

/**
 * READMEs whose first example does not run from an install yet, and why. A
 * listed one is expected to fail (`it.fails`): once it runs, the test says so
 * and it comes off the list.
 */
const NOT_YET_RUNNABLE: Record<string, string> = {};

interface Manifest {
  name: string;
  version: string;
  exports?: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
}

const packages = publishedPackages(root).map((dir) => ({
  dir,
  short: dir.split(/[/\\]/).pop()!,
  manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest,
}));
const workspaceVersion = (name: string) =>
  (
    JSON.parse(
      readFileSync(
        createRequire(join(root, "package.json")).resolve(`${name}/package.json`),
        "utf8",
      ),
    ) as { version: string }
  ).version;

let work: string;
let app: string;
/** `file:` specs of our tarballs, by package name. */
const ours: Record<string, string> = {};

/** Runs `command` in the app directory (or `cwd`) and returns its status and output. */
function run(
  command: string,
  args: string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
  cwd = app,
) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: timeoutMs,
    env: { ...process.env, NODE_PATH: "", ...env },
  });
  return { status: result.status, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

beforeAll(() => {
  for (const { dir, manifest } of packages) {
    if (!existsSync(join(dir, "dist")))
      throw new Error(`${manifest.name} is not built: run pnpm build`);
  }
  work = mkdtempSync(join(tmpdir(), "ocp-packed-"));
  app = join(work, "app");
  mkdirSync(join(work, "tgz"));
  mkdirSync(app);
  const peers: Record<string, string> = {};
  for (const { dir, manifest } of packages) {
    const out = execFileSync("pnpm", ["pack", "--pack-destination", join(work, "tgz")], {
      cwd: dir,
      encoding: "utf8",
    });
    const tarball = out.trim().split("\n").pop()!.trim();
    ours[manifest.name] = `file:${tarball}`;
    // The packed manifest, as npm reads it (workspace: and catalog: resolved).
    const packed = JSON.parse(
      execFileSync("tar", ["-xzf", tarball, "package/package.json", "-O"], { encoding: "utf8" }),
    ) as Manifest;
    for (const [name, range] of Object.entries(packed.peerDependencies ?? {})) {
      if (!name.startsWith("@ocp/")) peers[name] = range;
    }
  }
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({
      name: "ocp-packed-app",
      private: true,
      type: "module",
      dependencies: { ...peers, ...ours },
      devDependencies: {
        typescript: workspaceVersion("typescript"),
        "@types/node": `^${workspaceVersion("@types/node").split(".")[0]}`,
      },
      // Our packages come from the tarballs only, never from the registry.
      overrides: ours,
      allowScripts: { "better-sqlite3": true },
    }),
  );
  const nodedir = dirname(dirname(process.execPath));
  const install = run("npm", ["install", "--no-audit", "--no-fund"], 1_500_000, {
    npm_config_nodedir: nodedir,
    npm_config_update_notifier: "false",
  });
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.output}`);
}, 1_600_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
}, 300_000); // a whole node_modules

/** Every import specifier of a package: its name and each exported subpath. */
function entries(manifest: Manifest): string[] {
  const subpaths = Object.keys(manifest.exports ?? { ".": {} }).filter(
    (key) => key !== "./package.json" && !key.includes("*"),
  );
  return subpaths.map((key) => (key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}

describe("published packages installed with npm outside the workspace", () => {
  it("every entry of every package imports", () => {
    const specs = packages.flatMap(({ manifest }) => entries(manifest));
    expect(specs.length).toBeGreaterThan(packages.length);
    const script = `for (const spec of ${JSON.stringify(specs)}) {
      try { await import(spec); } catch (error) { console.log(spec + ": " + error.message); process.exitCode = 1; }
    }`;
    writeFileSync(join(app, "import-all.mjs"), script);
    const result = run(process.execPath, ["import-all.mjs"], 120_000);
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  }, 180_000);

  it.each(["nodenext", "bundler"])(
    "a TypeScript file importing every entry compiles, strict, skipLibCheck false, %s resolution",
    (resolution) => {
      const specs = packages.flatMap(({ manifest }) => entries(manifest));
      const dir = join(app, `ts-${resolution}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "all.ts"),
        `${specs.map((spec, i) => `import * as m${i} from "${spec}";`).join("\n")}\nexport const all = [${specs.map((_, i) => `m${i}`).join(", ")}];\n`,
      );
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            skipLibCheck: false,
            noEmit: true,
            target: "es2022",
            module: resolution === "bundler" ? "esnext" : "nodenext",
            moduleResolution: resolution,
            types: ["node"],
          },
          files: ["all.ts"],
        }),
      );
      const tsc = join(app, "node_modules", "typescript", "bin", "tsc");
      const result = run(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], 300_000);
      expect(result.output).toBe("");
      expect(result.status).toBe(0);
    },
    360_000,
  );

  for (const { dir, short } of packages) {
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    const block = /```(js|ts|mjs)\n([\s\S]*?)```/.exec(readme);
    if (block === null) continue; // a README whose examples are shell commands only
    const why = NOT_YET_RUNNABLE[short];
    const test = why === undefined ? it : it.fails;
    test(`the first example of ${short}'s README runs as written${why === undefined ? "" : ` (not yet: ${why})`}`, async () => {
      let code = block[2]!;
      if (block[1] === "ts") {
        const ts = (await import(
          pathToFileURL(join(app, "node_modules", "typescript", "lib", "typescript.js")).href
        )) as { default: typeof import("typescript") };
        code = ts.default.transpileModule(code, {
          compilerOptions: {
            module: ts.default.ModuleKind.ESNext,
            target: ts.default.ScriptTarget.ES2022,
          },
        }).outputText;
      }
      const file = `readme-${short}.mjs`;
      writeFileSync(join(app, file), code);
      const result = run(process.execPath, [file], 60_000);
      expect(result.status, result.output).toBe(0);
    }, 90_000);
  }

  it("@ocp/transport-http installs under npm's engine-strict with the override its README gives", () => {
    const readme = readFileSync(join(root, "packages", "transport-http", "README.md"), "utf8");
    const snippet = /engine-strict[\s\S]*?```json\n([\s\S]*?)```/.exec(readme);
    expect(snippet).not.toBeNull();
    const { overrides } = JSON.parse(snippet![1]!) as { overrides: Record<string, string> };
    const install = (extra: Record<string, string>) => {
      const dir = mkdtempSync(join(work, "strict-"));
      const deps = {
        "@ocp/transport-http": ours["@ocp/transport-http"]!,
        "@ocp/types": ours["@ocp/types"]!,
      };
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({
          name: "strict",
          private: true,
          dependencies: deps,
          overrides: { ...deps, ...extra },
        }),
      );
      const result = run(
        "npm",
        ["install", "--engine-strict", "--no-audit", "--no-fund"],
        600_000,
        {},
        dir,
      );
      return { dir, ...result };
    };
    const nodeMajor = Number(process.versions.node.split(".")[0]);
    const plain = install({});
    if (nodeMajor < 22) {
      // What the README warns of: cookie 2 declares Node 22.
      expect(plain.status).not.toBe(0);
      expect(plain.output).toContain("cookie@2");
    } else {
      expect(plain.status).toBe(0);
    }
    const pinned = install(overrides);
    expect(pinned.status, pinned.output).toBe(0);
    const loaded = run(
      process.execPath,
      ["--input-type=module", "-e", 'await import("@ocp/transport-http")'],
      60_000,
      {},
      pinned.dir,
    );
    expect(loaded.status, loaded.output).toBe(0);
  }, 1_300_000);
});
