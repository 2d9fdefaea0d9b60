import { open, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { BINARY_SNIFF_BYTES, MAX_FILE_BYTES, MAX_FILES } from "./limits.js";

/** A file found under one of the indexed roots. */
export interface FoundFile {
  /** Absolute path. */
  readonly path: string;
  /** Path relative to its root, with `/` separators (the root's name for a file root). */
  readonly relpath: string;
  readonly size: number;
  readonly mtime: Date;
}

/** Directory names never descended into. */
const SKIPPED_DIRS = new Set(["node_modules", ".git", ".hg", ".svn", ".turbo", ".next", "target"]);

/** Extensions of files that are binary whatever their bytes say. */
const BINARY_EXTENSIONS = new Set(
  "png jpg jpeg gif webp ico bmp pdf zip gz tgz bz2 xz 7z tar wasm node so dylib dll exe bin class jar woff woff2 ttf otf eot mp3 mp4 mov avi webm sqlite db lockb".split(
    " ",
  ),
);

interface Rule {
  /** Absolute directory the .gitignore lives in; its patterns are relative to it. */
  readonly dir: string;
  readonly matcher: Ignore;
}

function ignoredBy(rules: readonly Rule[], path: string, isDir: boolean): boolean {
  for (const rule of rules) {
    const local = relative(rule.dir, path).split(sep).join("/");
    if (local === "" || local.startsWith("..")) continue;
    if (rule.matcher.ignores(isDir ? `${local}/` : local)) return true;
  }
  return false;
}

async function loadGitignore(dir: string): Promise<Rule | undefined> {
  try {
    const text = await readFile(join(dir, ".gitignore"), "utf8");
    return { dir, matcher: ignore().add(text) };
  } catch {
    return undefined;
  }
}

/**
 * The .gitignore rules of the git work tree enclosing `dir`, from its top down
 * to `dir`'s parent, so indexing a sub-folder still honours the repository's
 * ignores.
 */
async function enclosingRules(dir: string): Promise<Rule[]> {
  const chain: string[] = [];
  for (let current = dirname(dir); ; current = dirname(current)) {
    chain.unshift(current);
    if (await exists(join(current, ".git"))) break;
    if (dirname(current) === current) return [];
  }
  const rules: Rule[] = [];
  for (const ancestor of chain) {
    const rule = await loadGitignore(ancestor);
    if (rule) rules.push(rule);
  }
  return rules;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a file looks binary: a known binary extension, or a NUL byte in its head. */
export async function isBinaryFile(path: string): Promise<boolean> {
  const dot = path.lastIndexOf(".");
  if (dot !== -1 && BINARY_EXTENSIONS.has(path.slice(dot + 1).toLowerCase())) return true;
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

export interface WalkOptions {
  /** Called with each file accepted, for progress reporting. */
  readonly onFile?: (file: FoundFile) => void;
  /** Called once per skipped path with the reason, for diagnostics. */
  readonly onSkip?: (path: string, reason: string) => void;
}

/**
 * Every indexable file under `root` (a directory or a single file), skipping
 * hidden entries, `node_modules`, build caches, what `.gitignore` files exclude, binaries and
 * files over {@link MAX_FILE_BYTES}. Order is deterministic (sorted names).
 */
export async function walk(root: string, options: WalkOptions = {}): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const rootStat = await stat(root);
  if (rootStat.isFile()) {
    if (rootStat.size <= MAX_FILE_BYTES && !(await isBinaryFile(root))) {
      const file = {
        path: root,
        relpath: basename(root),
        size: rootStat.size,
        mtime: rootStat.mtime,
      };
      found.push(file);
      options.onFile?.(file);
    }
    return found;
  }

  const visit = async (dir: string, inherited: readonly Rule[]): Promise<void> => {
    const rel = relative(root, dir).split(sep).join("/");
    const own = await loadGitignore(dir);
    const rules = own ? [...inherited, own] : inherited;
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      if (found.length >= MAX_FILES) {
        options.onSkip?.(dir, `file limit ${MAX_FILES} reached`);
        return;
      }
      // Hidden files and folders (.git, .env, .gitignore, editor state) are never content.
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      const relpath = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name) || ignoredBy(rules, path, true)) continue;
        await visit(path, rules);
      } else if (entry.isFile()) {
        if (ignoredBy(rules, path, false)) continue;
        const info = await stat(path);
        if (info.size > MAX_FILE_BYTES) {
          options.onSkip?.(path, `larger than ${MAX_FILE_BYTES} bytes`);
          continue;
        }
        if (await isBinaryFile(path)) {
          options.onSkip?.(path, "binary");
          continue;
        }
        const file = { path, relpath, size: info.size, mtime: info.mtime };
        found.push(file);
        options.onFile?.(file);
      }
    }
  };
  await visit(root, await enclosingRules(root));
  return found;
}
