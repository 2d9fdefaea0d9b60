import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * No source of a package, app or tool casts a value to
 * `Record<string, unknown>` (issue 42): the check is scripts/check-casts.mjs,
 * run by scripts/check-packages.mjs. This runs it on the workspace, then
 * plants casts in a temp tree and expects each named by file and line.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const script = join(root, "scripts", "check-casts.mjs");
const { castLines, castSourcesOf, checkCasts } = (await import(pathToFileURL(script).href)) as {
  castLines: (text: string, fileName?: string) => number[];
  castSourcesOf: (root: string) => string[];
  checkCasts: (options: { root: string }) => { files: number; problems: string[] };
};

const trees: string[] = [];
afterAll(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

/** A temp tree holding `files` (repo-relative path → text). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ocp-casts-"));
  trees.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const HONEST = 'import { isJsonObject } from "@ocp/types/internal";\nexport const ok = 1;\n';

describe("no casts to Record<string, unknown> (scripts/check-casts.mjs)", () => {
  it("finds none in the sources of the workspace's packages, apps and tools", () => {
    const sources = castSourcesOf(root);
    expect(sources).toContain(join(root, "packages", "a2a-ocp-hub", "src", "router.ts"));
    expect(sources).toContain(join(root, "packages", "types", "src", "codec.ts"));
    expect(sources).toContain(join(root, "apps", "demo-host", "src", "cli.ts"));
    expect(sources).toContain(join(root, "apps", "demo-team", "bin", "team-demo.mjs"));
    expect(sources).toContain(join(root, "tools", "testkit", "src", "index.ts"));
    expect(sources.some((file) => file.includes(`${join("packages", "types", "test")}`))).toBe(
      false,
    );
    const { files, problems } = checkCasts({ root });
    expect(files).toBe(sources.length);
    expect(problems).toEqual([]);
  }, 60_000);

  it("names each form of the cast by its line: bare, via unknown, Readonly, in a union, over lines, <...>, any", () => {
    const text = [
      "const a = x as Record<string, unknown>;",
      "const b = y as unknown as Record<string, unknown>;",
      "const c = z as Readonly<Record<string,unknown>>;",
      "const d = w as Record<string, unknown> | undefined;",
      "const e = v as (Record<",
      "  string,",
      "  unknown",
      ">);",
      "const f = <Record<string, unknown>>u;",
      "const g = t as Record<string, any>;",
    ].join("\n");
    expect(castLines(text)).toEqual([1, 2, 3, 4, 5, 9, 10]);
  });

  it("passes annotations, other records, narrowing, comments and strings", () => {
    const text = [
      "// x as Record<string, unknown>",
      "/* y as Record<string, unknown> */",
      'const s = "z as Record<string, unknown>";',
      "const a: Record<string, unknown> = {};",
      "const b = x as Record<string, number>;",
      "const c = isJsonObject(x) ? x : {};",
      "function f(v: unknown): v is Record<string, unknown> { return true; }",
    ].join("\n");
    expect(castLines(text)).toEqual([]);
  });

  it("names a JSDoc cast in a JavaScript source, not a JSDoc annotation", () => {
    const text = [
      "/** @type {Record<string, unknown>} */",
      "const annotated = {};",
      "const cast = /** @type {Record<string, unknown>} */ (JSON.parse(text));",
    ].join("\n");
    expect(castLines(text, "cli.mjs")).toEqual([3]);
  });

  it("names a cast planted in a package, an app's bin and a tool as file:line, and reads no tests", () => {
    const dir = tree({
      "packages/demo/src/deep/read.ts": `${HONEST}export const v = JSON.parse("{}") as Record<string, unknown>;\n`,
      "packages/demo/test/read.test.ts": "const t = x as Record<string, unknown>;\n",
      "apps/demo/bin/cli.mjs":
        "const c = /** @type {Record<string, unknown>} */ (JSON.parse(t));\n",
      "apps/demo/src/index.ts": HONEST,
      "tools/kit/src/index.ts":
        "\n\nexport const k = (x: unknown) => x as unknown as Record<string, unknown>;\n",
    });
    const { files, problems } = checkCasts({ root: dir });
    expect(files).toBe(4);
    expect(problems.map((problem) => problem.split(": ")[0])).toEqual([
      "packages/demo/src/deep/read.ts:3",
      "apps/demo/bin/cli.mjs:1",
      "tools/kit/src/index.ts:3",
    ]);
    expect(problems[0]).toContain("narrow it with isJsonObject");
  });

  it("fails the command line and check-packages.mjs (exit 1) on a planted cast, and passes the tree without it", () => {
    const dir = tree({
      "packages/demo/src/index.ts": `${HONEST}export const v = JSON.parse("{}") as Record<string, unknown>;\n`,
    });
    cpSync(join(root, "LICENSE"), join(dir, "LICENSE"));
    const run = (file: string) => {
      try {
        return {
          status: 0,
          out: execFileSync(process.execPath, [file, dir], { encoding: "utf8" }),
        };
      } catch (error) {
        const failed = error as { status: number; stdout: string };
        return { status: failed.status, out: failed.stdout };
      }
    };
    for (const file of [script, join(root, "scripts", "check-packages.mjs")]) {
      const { status, out } = run(file);
      expect(status).toBe(1);
      expect(out).toContain(
        "packages/demo/src/index.ts:3: casts a value to Record<string, unknown>",
      );
    }
    writeFileSync(join(dir, "packages", "demo", "src", "index.ts"), HONEST);
    expect(run(script)).toEqual({ status: 0, out: "" });
  }, 120_000);
});
