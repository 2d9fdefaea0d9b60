#!/usr/bin/env node
/**
 * Measures what each published package's root entry (`"."` of its
 * `exports`) offers a user: the names a `.ts` import sees, split into
 * runtime names (a value exists at run time: functions, classes, constants,
 * enums) and type-only names (interfaces, type aliases, `export type`).
 * Read from the sources with the TypeScript checker, so no build is needed:
 * workspace packages resolve to their `src/` through `paths`.
 *
 * `node scripts/export-surface.mjs [--json] [root]` prints a table;
 * `rootExports({ root })` is the same as a function. `checkExportBudget`
 * holds every root against scripts/export-budget.json (scripts/check-layers.mjs
 * runs it): a root with more runtime or type names than its ceiling fails,
 * naming the names its budget does not list.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** The `src/` file behind an `exports` target (`./dist/x.js` → `src/x.ts`). */
function sourceOf(dir, target) {
  let value = target;
  while (value && typeof value === "object") value = value.import ?? value.default;
  if (typeof value !== "string") return undefined;
  const file = join(dir, value.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts"));
  return existsSync(file) ? file : undefined;
}

/** Every published package (`packages/*`, not private): name, dir and its entries' sources. */
export function publishedEntries(root) {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, "package.json")),
    )
    .map((entry) => {
      const dir = join(packagesDir, entry.name);
      const manifest = readJson(join(dir, "package.json"));
      const entries = Object.fromEntries(
        Object.entries(manifest.exports ?? {})
          .map(([subpath, target]) => [subpath, sourceOf(dir, target)])
          .filter(([, file]) => file !== undefined),
      );
      return { name: manifest.name, dir, private: manifest.private === true, entries };
    })
    .filter((pkg) => !pkg.private)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `paths` that resolve `@ocp/<name>[/sub]` to the sources of every workspace package. */
function workspacePaths(packages) {
  const paths = {};
  for (const pkg of packages) {
    for (const [subpath, file] of Object.entries(pkg.entries)) {
      paths[pkg.name + subpath.slice(1)] = [file];
    }
  }
  return paths;
}

/** Whether an exported symbol has a value at run time (not a type, not `export type`). */
function isRuntime(checker, symbol) {
  let current = symbol;
  const seen = new Set();
  while (current.flags & ts.SymbolFlags.Alias && !seen.has(current)) {
    seen.add(current);
    for (const declaration of current.declarations ?? []) {
      if (ts.isTypeOnlyImportOrExportDeclaration?.(declaration)) return false;
    }
    const next = checker.getImmediateAliasedSymbol(current);
    if (next === undefined) break;
    current = next;
  }
  return (current.flags & ts.SymbolFlags.Value) !== 0;
}

/**
 * The root exports of every published package, sorted:
 * `{ name, runtime: string[], types: string[] }[]`. `entry` picks another
 * subpath than `"."`.
 */
export function rootExports({ root, entry = "." }) {
  const packages = publishedEntries(root);
  const roots = packages.filter((pkg) => pkg.entries[entry] !== undefined);
  const options = {
    ...ts.getDefaultCompilerOptions(),
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    allowImportingTsExtensions: false,
    baseUrl: root,
    paths: workspacePaths(packages),
  };
  const program = ts.createProgram({
    rootNames: roots.map((pkg) => pkg.entries[entry]),
    options,
  });
  const checker = program.getTypeChecker();
  return roots.map((pkg) => {
    const source = program.getSourceFile(pkg.entries[entry]);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const runtime = [];
    const types = [];
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      (isRuntime(checker, symbol) ? runtime : types).push(symbol.getName());
    }
    return { name: pkg.name, runtime: runtime.sort(), types: types.sort() };
  });
}

/** Where the budget lives, relative to the repository root. */
export const BUDGET_FILE = "scripts/export-budget.json";

const readBudget = (root) => {
  const file = join(root, BUDGET_FILE);
  return existsSync(file) ? readJson(file) : undefined;
};

/**
 * One problem per published package whose root exceeds its budget (or has
 * none). `budget` defaults to the root's scripts/export-budget.json, shaped
 * `{ "<package>": { why, runtime: { max, names }, types: { max, names } } }`.
 */
export function checkExportBudget({ root, budget = readBudget(root), surfaces }) {
  if (budget === undefined) return { packages: 0, problems: [`${BUDGET_FILE}: missing`] };
  const measured = surfaces ?? rootExports({ root });
  const problems = [];
  for (const { name, runtime, types } of measured) {
    const entry = budget[name];
    if (entry === undefined) {
      problems.push(`${name}: no root-export budget in ${BUDGET_FILE}`);
      continue;
    }
    for (const [kind, names] of [
      ["runtime", runtime],
      ["type", types],
    ]) {
      const limit = entry[kind === "type" ? "types" : kind];
      if (names.length <= limit.max) continue;
      const known = new Set(limit.names);
      const added = names.filter((n) => !known.has(n));
      problems.push(
        `${name}: ${names.length} ${kind} root exports, budget ${limit.max}` +
          (added.length > 0 ? `; new: ${added.join(", ")}` : "") +
          ` (move them to a subpath, or raise the budget in ${BUDGET_FILE} and say why)`,
      );
    }
  }
  for (const name of Object.keys(budget)) {
    if (!name.startsWith("$") && !measured.some((pkg) => pkg.name === name)) {
      problems.push(`${name}: in ${BUDGET_FILE} but not a published package with a root entry`);
    }
  }
  return { packages: measured.length, problems };
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const args = process.argv.slice(2);
  const root =
    args.find((arg) => !arg.startsWith("--")) ??
    join(dirname(fileURLToPath(import.meta.url)), "..");
  const result = rootExports({ root });
  if (args.includes("--write-budget")) {
    // Records the measured names as the budget, keeping each package's ceiling (or the count) and `why`.
    const file = join(root, BUDGET_FILE);
    const old = existsSync(file) ? readJson(file) : {};
    const next = { $comment: old.$comment };
    for (const { name, runtime, types } of result) {
      const was = old[name] ?? {};
      next[name] = {
        why: was.why ?? "",
        runtime: { max: Math.max(was.runtime?.max ?? 0, runtime.length), names: runtime },
        types: { max: Math.max(was.types?.max ?? 0, types.length), names: types },
      };
    }
    writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
  }
  if (args.includes("--json")) console.log(JSON.stringify(result, null, 2));
  else {
    for (const { name, runtime, types } of result) {
      console.log(
        `${name.padEnd(26)} runtime ${String(runtime.length).padStart(3)}  types ${String(types.length).padStart(3)}`,
      );
    }
  }
}
