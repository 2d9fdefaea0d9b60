#!/usr/bin/env node
/**
 * Checks what every published workspace package (a `packages/*` package not
 * marked private) ships to a user, and prints one line per problem:
 *
 * - licence: `LICENSE` is in its `files` and on disk beside its
 *   package.json, the same text as the repository's LICENSE;
 * - declarations: every third-party module its built `.d.ts` files import
 *   (those reachable from the `types` of its exports) has its types in what
 *   an install brings: the module itself is a dependency (or peer) that
 *   ships types, or its `@types/` package is a dependency. A type package
 *   left in `devDependencies` gives every TypeScript user TS7016.
 * - source maps: every file a built `.map` names in `sources` is shipped
 *   (inside a folder or file its `files` lists), so a stack trace or a
 *   debugger in a user's install reaches the source.
 * - engines: no runtime dependency declares an `engines.node` range that
 *   leaves out a Node version the package's `engines` admit
 *   (scripts/check-engines.mjs, with its list of known gaps).
 * - READMEs: every README of the repository (root, packages, apps, tools)
 *   stays under 250 lines, a guide with its reference in docs/
 *   (scripts/check-readmes.mjs).
 * - casts: no source of a package, app or tool casts a value to
 *   `Record<string, unknown>`; it narrows with `isJsonObject`
 *   (scripts/check-casts.mjs).
 *
 * `node scripts/check-packages.mjs [root]` checks every published package
 * (declarations only for those built); exits 1 on a problem.
 * `checkLicenses({ root })`, `checkDeclarations({ dir })` and
 * `checkSourceMaps({ dir })` are the same as
 * functions (packages/types/test/published-packages.test.ts and
 * packages/transport-ws/test/declarations.test.ts run them).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { checkCasts } from "./check-casts.mjs";
import { checkEnginesOf } from "./check-engines.mjs";
import { checkReadmeLengths, checkReadmeLimits } from "./check-readmes.mjs";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** The directories of the published packages under `root/packages`. */
export function publishedPackages(root) {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packagesDir, entry.name))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .filter((dir) => readJson(join(dir, "package.json")).private !== true)
    .sort();
}

/** Every published package ships the repository's LICENSE: in `files`, on disk, same text. */
export function checkLicenses({ root }) {
  const problems = [];
  const licensePath = join(root, "LICENSE");
  const dirs = publishedPackages(root);
  if (!existsSync(licensePath))
    return { packages: dirs.length, problems: ["the repository has no LICENSE file"] };
  const license = readFileSync(licensePath, "utf8");
  for (const dir of dirs) {
    const { name, files } = readJson(join(dir, "package.json"));
    if (!Array.isArray(files) || !files.includes("LICENSE"))
      problems.push(`${name}: "LICENSE" is not in the files of its package.json`);
    const own = join(dir, "LICENSE");
    if (!existsSync(own)) problems.push(`${name}: no LICENSE file beside its package.json`);
    else if (readFileSync(own, "utf8") !== license)
      problems.push(`${name}: its LICENSE differs from the repository's LICENSE`);
  }
  return { packages: dirs.length, problems };
}

/** The module specifiers a declaration file imports, `import()` types and `/// <reference types>` included. */
function importsOf(text) {
  const info = ts.preProcessFile(text, true, true);
  return [...info.importedFiles, ...info.typeReferenceDirectives].map((ref) => ref.fileName);
}

/** Every `types` path named in an `exports` map (any condition, any depth). */
function exportedTypes(exports, out = []) {
  if (typeof exports === "string") {
    if (exports.endsWith(".d.ts")) out.push(exports);
  } else if (exports !== null && typeof exports === "object") {
    for (const [key, value] of Object.entries(exports)) {
      if (key === "types" && typeof value === "string") out.push(value);
      else exportedTypes(value, out);
    }
  }
  return out;
}

/** `lodash/fp` → `lodash`, `@scope/name/sub` → `@scope/name`. */
function packageOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** `ws` → `@types/ws`, `@scope/name` → `@types/scope__name`. */
function typesPackageOf(name) {
  return `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
}

/** Whether the installed package `name`, seen from `dir`, ships its own declarations. */
function shipsTypes(dir, name) {
  const manifest = join(dir, "node_modules", name, "package.json");
  if (!existsSync(manifest)) return false;
  const pkg = readJson(manifest);
  if (typeof pkg.types === "string" || typeof pkg.typings === "string") return true;
  if (exportedTypes(pkg.exports).length > 0) return true;
  return existsSync(join(dirname(manifest), "index.d.ts"));
}

/**
 * The third-party modules that the package at `dir` imports from the
 * declarations a user's compiler reads (reachable from its exports'
 * `types`), each with its types in its dependencies; one problem per module
 * that has none. Needs the package built.
 */
export function checkDeclarations({ dir }) {
  const pkg = readJson(join(dir, "package.json"));
  const entries = exportedTypes(pkg.exports ?? {});
  if (typeof pkg.types === "string") entries.push(pkg.types);
  const missing = entries.map((entry) => join(dir, entry)).filter((file) => !existsSync(file));
  if (entries.length === 0 || missing.length > 0)
    return {
      files: 0,
      problems: [`${pkg.name}: not built (no ${missing.map((f) => relative(dir, f)).join(", ")})`],
    };
  const seen = new Set();
  const imports = new Map();
  const queue = entries.map((entry) => normalize(join(dir, entry)));
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const specifier of importsOf(text)) {
      if (specifier.startsWith(".")) {
        queue.push(normalize(join(dirname(file), specifier.replace(/\.(m|c)?js$/, ".d.$1ts"))));
        continue;
      }
      if (specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
      const name = packageOf(specifier);
      if (!imports.has(name)) imports.set(name, relative(dir, file).split(sep).join("/"));
    }
  }
  const dependencies = pkg.dependencies ?? {};
  const declared = { ...dependencies, ...(pkg.peerDependencies ?? {}) };
  const problems = [];
  for (const [name, file] of imports) {
    if (!(name in declared)) {
      problems.push(`${pkg.name}: ${file} imports "${name}", which is not a dependency`);
    } else if (!(typesPackageOf(name) in dependencies) && !shipsTypes(dir, name)) {
      problems.push(
        `${pkg.name}: ${file} imports "${name}", which ships no types, and ${typesPackageOf(name)} is not in its dependencies (TS7016 for its users)`,
      );
    }
  }
  return { files: seen.size, problems };
}

/** The `.map` files under `dir`, recursively. */
function mapsUnder(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) mapsUnder(path, out);
    else if (entry.name.endsWith(".map")) out.push(path);
  }
  return out;
}

/** Every source a built map of the package at `dir` names is inside what its `files` ship. */
export function checkSourceMaps({ dir }) {
  const pkg = readJson(join(dir, "package.json"));
  const shipped = (pkg.files ?? []).map((entry) => normalize(entry).replace(/[/\\]+$/, ""));
  const problems = [];
  const missing = new Set();
  const maps = existsSync(join(dir, "dist")) ? mapsUnder(join(dir, "dist")) : [];
  for (const map of maps) {
    const { sources = [], sourceRoot = "" } = readJson(map);
    for (const source of sources) {
      const path = relative(dir, join(dirname(map), sourceRoot, source));
      const top = path.split(sep)[0];
      const inside = shipped.some((entry) => path === entry || path.startsWith(`${entry}${sep}`));
      if (!inside || top === ".." || !existsSync(join(dir, path))) missing.add(path);
    }
  }
  for (const path of [...missing].sort().slice(0, 3))
    problems.push(`${pkg.name}: a source map names ${path}, which the package does not ship`);
  if (missing.size > 3)
    problems.push(`${pkg.name}: … and ${missing.size - 3} more unshipped sources`);
  return { maps: maps.length, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..");
  const problems = [...checkLicenses({ root }).problems];
  for (const dir of publishedPackages(root))
    if (existsSync(join(dir, "dist")))
      problems.push(...checkDeclarations({ dir }).problems, ...checkSourceMaps({ dir }).problems);
  problems.push(...checkEnginesOf(publishedPackages(root)).problems);
  problems.push(...checkReadmeLengths({ root }).problems);
  problems.push(...checkReadmeLimits({ root }).problems);
  problems.push(...checkCasts({ root }).problems);
  for (const problem of problems) process.stdout.write(`${problem}\n`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
