import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { FrameKind } from "@ocp/types";
import MiniSearch from "minisearch";
import { type Chunk, chunkFile } from "./chunk.js";
import { MAX_CANDIDATES } from "./limits.js";
import { countTokens } from "./tokens.js";
import { type FoundFile, walk } from "./walk.js";

/** One indexed chunk with everything a frame needs, computed once. */
export interface Entry {
  readonly id: string;
  readonly kind: Chunk["kind"];
  readonly title: string;
  /** The exact lines served, joined by `\n`. */
  readonly content: string;
  readonly path: string;
  readonly relpath: string;
  readonly uri: string;
  readonly start: number;
  readonly end: number;
  /** `sha256:<hex>` of the UTF-8 bytes of `content`. */
  readonly digest: string;
  readonly tokens: number;
  /** The file's modification time (UTC, ISO 8601): since when its bytes have been what is served. */
  readonly recordedAt: string;
  /** Whether the file's bytes are exactly the UTF-8 of its text (so frames can cite its bytes). */
  readonly exact: boolean;
  /** The file's text split at `\n`: how many pieces (a line `n` has a terminator iff `n` < this). */
  readonly fileLines: number;
}

export interface IndexProgress {
  readonly done: number;
  readonly total: number;
  readonly bytes: number;
}

export interface BuildOptions {
  readonly onProgress?: (progress: IndexProgress) => void;
  readonly onSkip?: (path: string, reason: string) => void;
}

export interface Hit {
  readonly entry: Entry;
  /** BM25 score, boosted for anchors; not normalised. */
  readonly score: number;
}

/**
 * Words too common to say anything about relevance; dropped from documents and
 * queries alike so "how does a host decide" ranks by "host" and "decide".
 */
const STOP_WORDS = new Set(
  "a an and are as at be but by can do does for from has have how i if in into is it its of on or so such that the their then there these this to was what when where whether which who why will with you your".split(
    " ",
  ),
);

/**
 * A light English stemmer (plural and verb endings), so "versions" finds
 * "version" and "composing" finds "compose". Deterministic and cheap; not a
 * linguistic stemmer.
 */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ing") && word.length > 6) return word.slice(0, -3);
  if (word.endsWith("ed") && word.length > 5) return word.slice(0, -2);
  if (word.endsWith("es") && /(x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : stem(lower);
}

/**
 * The search terms of `text` as the index sees them (identifiers split, stop
 * words dropped, stemmed): what {@link fitPart} scores lines by.
 */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term !== null) out.push(term);
  }
  return out;
}

/** Splits identifiers as well as words: `backoff_ms` and `retryPolicy` match `backoff`, `retry`. */
function tokenize(text: string): string[] {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const out: string[] = [];
  for (const word of words) {
    out.push(word);
    const parts = word.split(/(?<=[a-z0-9])(?=[A-Z])/);
    if (parts.length > 1) out.push(...parts);
  }
  return out;
}

/**
 * The provider's root: the deepest folder holding every root (a file root
 * counts as its folder), so paths are cited relative to it — nine package
 * READMEs read `host/README.md`, `types/README.md`, …, not nine `README.md`.
 */
export async function commonRoot(roots: readonly string[]): Promise<string> {
  const dirs: string[] = [];
  for (const root of roots) {
    const path = resolve(root);
    dirs.push((await stat(path)).isDirectory() ? path : dirname(path));
  }
  let common = dirs[0] ?? process.cwd();
  for (const dir of dirs.slice(1)) {
    while (common !== dirname(common) && relative(common, dir).startsWith("..")) {
      common = dirname(common);
    }
  }
  return common;
}

/**
 * A searchable index of a directory tree: chunks ranked by BM25 (MiniSearch's
 * BM25+), title matches weighted double.
 */
export class Corpus {
  readonly entries: readonly Entry[];
  readonly files: number;
  readonly bytes: number;
  private readonly search: MiniSearch<Entry>;
  private readonly byId: ReadonlyMap<string, Entry>;
  /** Every indexed file by the names frame ids use for it: its relative path and its URI. */
  private readonly paths = new Map<string, string>();

  private constructor(entries: Entry[], files: number, bytes: number) {
    this.entries = entries;
    this.files = files;
    this.bytes = bytes;
    this.byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const entry of entries) {
      this.paths.set(entry.relpath, entry.path);
      this.paths.set(entry.uri, entry.path);
    }
    this.search = new MiniSearch<Entry>({
      fields: ["title", "content", "relpath"],
      storeFields: [],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { title: 2, relpath: 1.5 },
        prefix: (term) => term.length > 3,
        fuzzy: false,
      },
    });
    this.search.addAll(entries);
  }

  /** Indexes every file under `roots` (directories or files). */
  static async build(roots: readonly string[], options: BuildOptions = {}): Promise<Corpus> {
    const found: FoundFile[] = [];
    const base = await commonRoot(roots);
    for (const root of roots) {
      for (const file of await walk(resolve(root), { onSkip: options.onSkip })) {
        found.push({ ...file, relpath: relative(base, file.path).split(sep).join("/") });
      }
    }
    const entries: Entry[] = [];
    const seen = new Set<string>();
    let bytes = 0;
    for (const [index, file] of found.entries()) {
      const raw = await readFile(file.path);
      const text = raw.toString("utf8");
      const exact = Buffer.byteLength(text, "utf8") === raw.length && Buffer.from(text).equals(raw);
      bytes += file.size;
      const lines = text.split("\n");
      const uri = pathToFileURL(file.path).href;
      for (const chunk of chunkFile(text, file.path, file.relpath)) {
        const content = lines.slice(chunk.start - 1, chunk.end).join("\n");
        let id = `${file.relpath}#L${chunk.start}-${chunk.end}`;
        if (seen.has(id)) id = `${uri}#L${chunk.start}-${chunk.end}`;
        if (seen.has(id)) continue;
        seen.add(id);
        entries.push({
          id,
          kind: chunk.kind,
          title: chunk.title,
          content,
          path: file.path,
          relpath: file.relpath,
          uri,
          start: chunk.start,
          end: chunk.end,
          digest: `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`,
          tokens: countTokens(content),
          recordedAt: file.mtime.toISOString(),
          exact,
          fileLines: lines.length,
        });
      }
      options.onProgress?.({ done: index + 1, total: found.length, bytes });
    }
    return new Corpus(entries, found.length, bytes);
  }

  get(id: string): Entry | undefined {
    return this.byId.get(id);
  }

  /**
   * The indexed file a frame id names (`<relpath or uri>#L<start>-<end>`,
   * whole entries and parts alike), with the lines it cites; `undefined`
   * when the id names no file of this corpus. Never a path from anywhere else.
   */
  cited(frameId: string): { path: string; start: number; end: number } | undefined {
    const match = /^(.*)#L(\d+)-(\d+)$/.exec(frameId);
    if (match === null) return undefined;
    const path = this.paths.get(match[1]!);
    const start = Number(match[2]);
    const end = Number(match[3]);
    if (path === undefined || start < 1 || end < start) return undefined;
    return { path, start, end };
  }

  /**
   * The best entries for `text`, of the given kinds (all when empty), best
   * first; entries from a file named by an anchor are boosted by
   * `anchorBoost`. Ties break on id so the order is deterministic.
   */
  query(
    text: string,
    kinds: readonly FrameKind[],
    anchors: readonly string[],
    anchorBoost: number,
  ): Hit[] {
    const wanted = new Set<string>(kinds);
    const anchored = (entry: Entry) =>
      anchors.some((anchor) => {
        const path = anchor.startsWith("file://") ? new URL(anchor).pathname : anchor;
        return entry.path === path || entry.path.endsWith(`/${path.replace(/^\.?\//, "")}`);
      });
    const hits: Hit[] = [];
    for (const result of this.search.search(text, { combineWith: "OR" })) {
      const entry = this.byId.get(String(result.id));
      if (!entry || (wanted.size > 0 && !wanted.has(entry.kind))) continue;
      hits.push({ entry, score: result.score * (anchored(entry) ? anchorBoost : 1) });
    }
    hits.sort((a, b) => b.score - a.score || (a.entry.id < b.entry.id ? -1 : 1));
    return hits.slice(0, MAX_CANDIDATES);
  }
}
