import type { FrameKind } from "@ocp/types";
import { MAX_SECTION_LINES, MAX_SYMBOL_LINES, SNIPPET_LINES } from "./limits.js";

/** A contiguous range of lines of one file, served as one frame. */
export interface Chunk {
  readonly kind: Extract<FrameKind, "doc" | "snippet" | "symbol">;
  readonly title: string;
  /** First line, 1-based, inclusive. */
  readonly start: number;
  /** Last line, 1-based, inclusive. */
  readonly end: number;
}

const MARKDOWN = /\.(md|markdown|mdx)$/i;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** Top-level declarations, per language family, that start a symbol frame. */
const SYMBOL_PATTERNS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [
    /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i,
    /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|const|let|var)\s+([A-Za-z_$][\w$]*)/,
  ],
  [
    /\.rs$/i,
    /^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|mod|type|const|static|impl(?:<[^>]*>)?)\s+([A-Za-z_][\w]*)/,
  ],
  [/\.py$/i, /^(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/],
  [/\.go$/i, /^(?:func(?:\s*\([^)]*\))?|type)\s+([A-Za-z_]\w*)/],
  [
    /\.(java|kt|cs|scala)$/i,
    /^(?:public\s+|private\s+|protected\s+|internal\s+)?(?:static\s+)?(?:final\s+)?(?:abstract\s+)?(?:class|interface|enum|record|object|fun)\s+([A-Za-z_]\w*)/,
  ],
];

/** Whether a path is Markdown (split by heading into `doc` frames). */
export function isMarkdown(path: string): boolean {
  return MARKDOWN.test(path);
}

function splitLong(chunk: Chunk, max: number, partKind: Chunk["kind"]): Chunk[] {
  const length = chunk.end - chunk.start + 1;
  if (length <= max) return [chunk];
  const parts: Chunk[] = [];
  for (let start = chunk.start, part = 1; start <= chunk.end; start += max, part++) {
    const end = Math.min(chunk.end, start + max - 1);
    parts.push({
      kind: part === 1 ? chunk.kind : partKind,
      title: part === 1 ? chunk.title : `${chunk.title} (part ${part})`,
      start,
      end,
    });
  }
  return parts;
}

function isBlank(lines: readonly string[], start: number, end: number): boolean {
  for (let i = start - 1; i < end; i++) if ((lines[i] ?? "").trim() !== "") return false;
  return true;
}

/**
 * Markdown split by ATX heading (outside code fences): one `doc` chunk per
 * section, titled by its heading; text before the first heading is titled by
 * the file name. Long sections are split into parts.
 */
export function chunkMarkdown(lines: readonly string[], fileName: string): Chunk[] {
  const chunks: Chunk[] = [];
  let inFence = false;
  let title = fileName;
  let start = 1;
  const close = (end: number) => {
    if (end >= start && !isBlank(lines, start, end)) {
      chunks.push(...splitLong({ kind: "doc", title, start, end }, MAX_SECTION_LINES, "doc"));
    }
  };
  lines.forEach((line, index) => {
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) return;
    const heading = HEADING.exec(line);
    if (heading) {
      close(index);
      title = heading[2] ?? fileName;
      start = index + 1;
    }
  });
  close(lines.length);
  return chunks;
}

/**
 * Source split into `symbol` chunks at top-level declarations (each running
 * to the next one), with the lines no symbol covers served as `snippet`
 * windows. A file of a language without symbol patterns is all snippets.
 */
export function chunkSource(lines: readonly string[], path: string, relpath: string): Chunk[] {
  const pattern = SYMBOL_PATTERNS.find(([file]) => file.test(path))?.[1];
  const starts: Array<{ line: number; name: string }> = [];
  if (pattern) {
    lines.forEach((line, index) => {
      const match = pattern.exec(line);
      if (match?.[1]) starts.push({ line: index + 1, name: match[1] });
    });
  }
  const chunks: Chunk[] = [];
  const snippets = (from: number, to: number) => {
    for (let start = from; start <= to; start += SNIPPET_LINES) {
      const end = Math.min(to, start + SNIPPET_LINES - 1);
      if (!isBlank(lines, start, end)) {
        chunks.push({ kind: "snippet", title: `${relpath} L${start}-${end}`, start, end });
      }
    }
  };
  let covered = 0;
  starts.forEach((symbol, i) => {
    if (symbol.line > covered + 1) snippets(covered + 1, symbol.line - 1);
    let end = (starts[i + 1]?.line ?? lines.length + 1) - 1;
    while (end > symbol.line && (lines[end - 1] ?? "").trim() === "") end--;
    const symbolEnd = Math.min(end, symbol.line + MAX_SYMBOL_LINES - 1);
    chunks.push({ kind: "symbol", title: symbol.name, start: symbol.line, end: symbolEnd });
    if (end > symbolEnd) snippets(symbolEnd + 1, end);
    covered = (starts[i + 1]?.line ?? lines.length + 1) - 1;
  });
  if (covered < lines.length) snippets(covered + 1, lines.length);
  return chunks;
}

/** The chunks of one file: Markdown by heading, anything else as source. */
export function chunkFile(text: string, path: string, relpath: string): Chunk[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const fileName = relpath.slice(relpath.lastIndexOf("/") + 1);
  return isMarkdown(path) ? chunkMarkdown(lines, fileName) : chunkSource(lines, path, relpath);
}
