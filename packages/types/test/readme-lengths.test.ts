import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Every README of the repository (root, packages/*, apps/*, tools/*) stays
 * under 250 lines: a guide, its reference in docs/. The check is
 * scripts/check-readmes.mjs, run by scripts/check-packages.mjs; this runs it
 * on the workspace, then grows a README in a copy and expects it named.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const { README_MAX_LINES, checkReadmeLengths, lineCount, readmesOf } = (await import(
  pathToFileURL(join(root, "scripts", "check-readmes.mjs")).href
)) as {
  README_MAX_LINES: number;
  checkReadmeLengths: (options: { root: string; max?: number }) => {
    readmes: number;
    problems: string[];
  };
  lineCount: (text: string) => number;
  readmesOf: (root: string) => string[];
};

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

/** A temp dir with a short README at the place of each README of the workspace. */
function copyReadmes(): string {
  const copy = mkdtempSync(join(tmpdir(), "ocp-readmes-"));
  copies.push(copy);
  for (const file of readmesOf(root)) {
    const target = join(copy, file.slice(root.length));
    mkdirSync(join(target, ".."), { recursive: true });
    writeFileSync(target, lines(20));
  }
  return copy;
}

describe("README length (scripts/check-readmes.mjs)", () => {
  it("every README of the workspace is under 250 lines: the root's, each package's and app's", () => {
    expect(README_MAX_LINES).toBe(250);
    const { readmes, problems } = checkReadmeLengths({ root });
    expect(readmes).toBeGreaterThanOrEqual(20);
    expect(readmesOf(root)).toContain(join(root, "README.md"));
    expect(readmesOf(root)).toContain(join(root, "apps", "demo-team", "README.md"));
    expect(problems).toEqual([]);
  });

  it("names a package README that reaches 250 lines, and passes one of 249", () => {
    const copy = copyReadmes();
    const readme = join(copy, "packages", "host", "README.md");
    writeFileSync(readme, lines(249));
    expect(checkReadmeLengths({ root: copy }).problems).toEqual([]);
    writeFileSync(readme, lines(250));
    expect(checkReadmeLengths({ root: copy }).problems).toEqual([
      "packages/host/README.md: 250 lines, the limit is under 250: move reference tables to the package's docs/ and link them",
    ]);
  });

  it("names the root README and an app README too", () => {
    const copy = copyReadmes();
    writeFileSync(join(copy, "README.md"), lines(300));
    writeFileSync(join(copy, "apps", "demo-host", "README.md"), `${lines(260)}no newline`);
    const { problems } = checkReadmeLengths({ root: copy });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^README\.md: 300 lines/);
    expect(problems[1]).toMatch(/^apps\/demo-host\/README\.md: 261 lines/);
  });

  it("check-packages.mjs fails (exit 1) and prints the README that is too long", async () => {
    const { execFileSync } = await import("node:child_process");
    const copy = copyReadmes();
    cpSync(join(root, "LICENSE"), join(copy, "LICENSE"));
    writeFileSync(join(copy, "packages", "transport-ws", "README.md"), lines(251));
    let out = "";
    let status = 0;
    try {
      execFileSync(process.execPath, [join(root, "scripts", "check-packages.mjs"), copy], {
        encoding: "utf8",
      });
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      status = failed.status;
      out = failed.stdout;
    }
    expect(status).toBe(1);
    expect(out).toContain("packages/transport-ws/README.md: 251 lines");
  });

  it("counts lines as wc -l does, plus an unterminated last line", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\n")).toBe(1);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("a\n\n")).toBe(2);
  });
});

const { checkReadmeLimits } = (await import(
  pathToFileURL(join(root, "scripts", "check-readmes.mjs")).href
)) as { checkReadmeLimits: (options: { root: string }) => { problems: string[] } };

describe("README names the LIMITS object (scripts/check-readmes.mjs)", () => {
  it("every package whose root exports LIMITS names it in its README", () => {
    expect(checkReadmeLimits({ root }).problems).toEqual([]);
  });

  it("names a package README that lost the sentence naming LIMITS", () => {
    const copy = mkdtempSync(join(tmpdir(), "ocp-readme-limits-"));
    copies.push(copy);
    mkdirSync(join(copy, "packages", "host", "src"), { recursive: true });
    cpSync(
      join(root, "packages", "host", "src", "index.ts"),
      join(copy, "packages", "host", "src", "index.ts"),
    );
    writeFileSync(
      join(copy, "packages", "host", "README.md"),
      "# @ocp/host\n\nLimits: see docs.\n",
    );
    expect(checkReadmeLimits({ root: copy }).problems).toEqual([
      "packages/host/README.md: does not name the `LIMITS` object its root entry exports",
    ]);
    writeFileSync(join(copy, "packages", "host", "README.md"), "Every limit is in `LIMITS`.\n");
    expect(checkReadmeLimits({ root: copy }).problems).toEqual([]);
  });
});
