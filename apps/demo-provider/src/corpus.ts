import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
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
  readonly recordedAt: string;
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
 * A searchable index of a directory tree: chunks ranked by BM25 (MiniSearch's
 * BM25+), title matches weighted double.
 */
export class Corpus {
  readonly entries: readonly Entry[];
  readonly files: number;
  readonly bytes: number;
  private readonly search: MiniSearch<Entry>;
  private readonly byId: ReadonlyMap<string, Entry>;

  private constructor(entries: Entry[], files: number, bytes: number) {
    this.entries = entries;
    this.files = files;
    this.bytes = bytes;
    this.byId = new Map(entries.map((entry) => [entry.id, entry]));
    this.search = new MiniSearch<Entry>({
      fields: ["title", "content", "relpath"],
      storeFields: [],
      tokenize,
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
    for (const root of roots) {
      found.push(...(await walk(resolve(root), { onSkip: options.onSkip })));
    }
    const entries: Entry[] = [];
    const seen = new Set<string>();
    let bytes = 0;
    for (const [index, file] of found.entries()) {
      const text = await readFile(file.path, "utf8");
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
