#!/usr/bin/env node
/**
 * Parsed JSON and messages are narrowed by a type guard, never cast: a cast
 * to `Record<string, unknown>` tells the compiler an object is there without
 * looking, so a `null`, an array or a string read by member name is a crash
 * or a wrong answer that no type error warned of. The guard is
 * `isJsonObject` (`@ocp/types/internal`, re-exported by
 * `@ocp/a2a-ocp-messaging/internal`).
 *
 * The check parses every TypeScript source of packages/<name>/src,
 * apps/<name>/src, apps/<name>/bin and tools/<name>/src with the TypeScript
 * parser (so comments and strings never count, and a cast split over lines
 * does) and names each `as` or `<...>` assertion (in JavaScript, each
 * JSDoc `/** @type {...} *\/ (value)` cast) whose type is
 * `Record<string, unknown>` (or `any`), bare, in `Readonly<...>`, or as a
 * member of a union (`as Record<string, unknown> | undefined`); `x as
 * unknown as Record<...>` is one of them. scripts/check-packages.mjs runs it,
 * packages/types/test/check-casts.test.ts tests it.
 *
 * `node scripts/check-casts.mjs [root]` prints one `file:line` per cast and
 * exits 1 when there is one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Where sources live: `<group>/<name>/<folder>` for each pair. */
export const CAST_SOURCE_DIRS = [
  ["packages", "src"],
  ["apps", "src"],
  ["apps", "bin"],
  ["tools", "src"],
];

const SOURCE_FILE = /\.(?:ts|mts|cts|tsx|js|mjs|cjs)$/;
const JS_FILE = /\.(?:js|mjs|cjs)$/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(path);
      return SOURCE_FILE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
    });
}

/** The TypeScript sources the check reads, under `root`. */
export function castSourcesOf(root) {
  const found = [];
  for (const [group, folder] of CAST_SOURCE_DIRS) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const dir = join(groupDir, entry.name, folder);
      if (entry.isDirectory() && existsSync(dir)) found.push(...filesUnder(dir));
    }
  }
  return found;
}

const isKeyword = (node, kind) => node !== undefined && node.kind === kind;

/** Whether `type` is `Record<string, unknown>` (or `any`), possibly in `Readonly<>`, parentheses or a union. */
function isRecordType(type) {
  if (ts.isParenthesizedTypeNode(type)) return isRecordType(type.type);
  if (ts.isUnionTypeNode(type)) return type.types.some(isRecordType);
  if (!ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName)) return false;
  const args = type.typeArguments ?? [];
  if (type.typeName.text === "Readonly" && args.length === 1) return isRecordType(args[0]);
  return (
    type.typeName.text === "Record" &&
    args.length === 2 &&
    isKeyword(args[0], ts.SyntaxKind.StringKeyword) &&
    (isKeyword(args[1], ts.SyntaxKind.UnknownKeyword) ||
      isKeyword(args[1], ts.SyntaxKind.AnyKeyword))
  );
}

/** The type a node asserts: `x as T`, `<T>x`, or in JavaScript `/** @type {T} *\/ (x)`. */
function assertedType(node) {
  if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) return node.type;
  if (ts.isParenthesizedExpression(node)) return ts.getJSDocTypeTag(node)?.typeExpression?.type;
  return undefined;
}

/** The 1-based lines of `text` (a TypeScript or JavaScript module) that cast a value to `Record<string, unknown>`. */
export function castLines(text, fileName = "module.ts") {
  // A cast to a Record names it: a module that never does is not parsed.
  if (!text.includes("Record")) return [];
  const js = JS_FILE.test(fileName);
  // Parent links only where JSDoc casts are read.
  const kind = js ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, js, kind);
  const lines = [];
  const visit = (node) => {
    const type = assertedType(node);
    if (type !== undefined && isRecordType(type))
      lines.push(source.getLineAndCharacterOfPosition(type.getStart(source)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/** One problem per cast to `Record<string, unknown>` in the sources of `root`, as `file:line`. */
export function checkCasts({ root }) {
  const files = castSourcesOf(root);
  const problems = [];
  for (const file of files) {
    const name = relative(root, file).split(sep).join("/");
    for (const line of castLines(readFileSync(file, "utf8"), file)) {
      problems.push(
        `${name}:${line}: casts a value to Record<string, unknown>: narrow it with isJsonObject (@ocp/types/internal) instead`,
      );
    }
  }
  return { files: files.length, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..");
  const { problems } = checkCasts({ root });
  for (const problem of problems) process.stdout.write(`${problem}\n`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
