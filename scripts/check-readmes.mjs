/**
 * A README is a guide: what the package is, how to install it, a first
 * example, the concepts and links to its docs/. Reference detail (limits,
 * codes, flags, wire tables) lives in the package's docs/*.md. The check
 * holds every README of the repository (the root's, each package's, app's
 * and tool's) under README_MAX_LINES lines; scripts/check-packages.mjs runs
 * it, packages/types/test/readme-lengths.test.ts tests it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** A README of this many lines or more is a manual, not a guide: split it into docs/. */
export const README_MAX_LINES = 250;

/** The README files the check reads: the root's, then those of packages/*, apps/* and tools/*. */
export function readmesOf(root) {
  const found = [join(root, "README.md")].filter((file) => existsSync(file));
  for (const group of ["packages", "apps", "tools"]) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const readme = join(dir, entry.name, "README.md");
      if (entry.isDirectory() && existsSync(readme)) found.push(readme);
    }
  }
  return found;
}

/** The number of lines of `text`, as `wc -l` counts them plus an unterminated last line. */
export function lineCount(text) {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/** One problem per README of `root` with `max` lines or more. */
export function checkReadmeLengths({ root, max = README_MAX_LINES }) {
  const readmes = readmesOf(root);
  const problems = [];
  for (const file of readmes) {
    const lines = lineCount(readFileSync(file, "utf8"));
    if (lines >= max)
      problems.push(
        `${relative(root, file).split(sep).join("/")}: ${lines} lines, the limit is under ${max}: move reference tables to the package's docs/ and link them`,
      );
  }
  return { readmes: readmes.length, problems };
}

/**
 * One problem per package whose root entry exports its limits as the
 * `LIMITS` object (`export * as LIMITS` in src/index.ts) and whose README
 * does not name that object: a reader learns there where the limits are.
 */
export function checkReadmeLimits({ root }) {
  const problems = [];
  const dir = join(root, "packages");
  if (!existsSync(dir)) return { problems };
  for (const name of readdirSync(dir).sort()) {
    const index = join(dir, name, "src", "index.ts");
    const readme = join(dir, name, "README.md");
    if (!existsSync(index) || !existsSync(readme)) continue;
    if (!/export \* as LIMITS from/.test(readFileSync(index, "utf8"))) continue;
    if (!readFileSync(readme, "utf8").includes("`LIMITS`")) {
      problems.push(
        `packages/${name}/README.md: does not name the \`LIMITS\` object its root entry exports`,
      );
    }
  }
  return { problems };
}
