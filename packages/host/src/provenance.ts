import { open, realpath } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Digest } from "@ocp/types/cgp";
import { MAX_PROVENANCE_FILE_BYTES } from "./limits.js";

/** One `file` provenance entry as a frame carries it. */
export interface FileProvenanceLike {
  readonly type: string;
  readonly uri?: string | null | undefined;
  readonly range?: string | null | undefined;
  readonly digest?: string | null | undefined;
}

/**
 * What re-reading one `file` provenance entry found (SPEC §6.2, the bytes
 * half of F5). Only `mismatch` is evidence against the provider; the others
 * say the host could not confirm, never that the digest is right.
 */
export type DigestCheck =
  | { readonly status: "verified" }
  | { readonly status: "mismatch"; readonly expected: string; readonly actual: string }
  /** Not under a trusted root: never read (the host re-reads only what it chose to trust). */
  | { readonly status: "untrusted"; readonly reason: string }
  | { readonly status: "unreadable"; readonly reason: string };

/**
 * F5 bytes: re-reads the bytes a `file` provenance entry addresses (`uri`,
 * and `range` as `L<start>[-<end>]`, 1-indexed, inclusive, each line with its
 * own `\n`, no normalisation; no range: the whole file) and compares their
 * `sha256:` digest with the declared one. Only files under one of `roots`
 * (symbolic links resolved) are read, at most {@link MAX_PROVENANCE_FILE_BYTES}.
 */
export async function checkFileDigest(
  entry: FileProvenanceLike,
  roots: readonly string[],
): Promise<DigestCheck> {
  if (typeof entry.digest !== "string") return unreadable("file provenance carries no digest");
  if (typeof entry.uri !== "string") return unreadable("file provenance carries no uri");
  let path: string;
  try {
    const url = new URL(entry.uri);
    if (url.protocol !== "file:" || (url.host !== "" && url.host !== "localhost")) {
      return unreadable(`${entry.uri} is not a local file:// uri`);
    }
    path = await realpath(fileURLToPath(url));
  } catch (error) {
    return unreadable(`cannot resolve ${entry.uri}: ${(error as Error).message}`);
  }
  const trusted = await Promise.all(roots.map((root) => realpath(root).catch(() => undefined)));
  if (!trusted.some((root) => root !== undefined && inside(root, path))) {
    return { status: "untrusted", reason: `${entry.uri} is under no trusted root` };
  }
  let bytes: Buffer;
  try {
    const handle = await open(path, "r");
    try {
      const { size } = await handle.stat();
      if (size > MAX_PROVENANCE_FILE_BYTES) {
        return unreadable(`${entry.uri} is ${size} bytes, over ${MAX_PROVENANCE_FILE_BYTES}`);
      }
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    return unreadable(`cannot read ${entry.uri}: ${(error as Error).message}`);
  }
  const span = entry.range == null ? bytes : lineRange(bytes, entry.range);
  if (typeof span === "string") return unreadable(span);
  const actual = sha256Digest(new Uint8Array(span.buffer, span.byteOffset, span.byteLength));
  return actual === entry.digest
    ? { status: "verified" }
    : { status: "mismatch", expected: entry.digest, actual };
}

function unreadable(reason: string): DigestCheck {
  return { status: "unreadable", reason };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The bytes of lines `L<start>[-<end>]`, or why the range cannot be read. */
function lineRange(bytes: Buffer, range: string): Buffer | string {
  const match = /^L([0-9]+)(?:-([0-9]+))?$/.exec(range);
  if (!match) return `unsupported range ${JSON.stringify(range)} (expected L<start>[-<end>])`;
  const start = Number(match[1]);
  const end = match[2] === undefined ? start : Number(match[2]);
  if (start === 0 || end < start) return `range ${range} is empty or inverted`;
  const starts = [0];
  for (let i = 0; i < bytes.length; i++)
    if (bytes[i] === 0x0a && i + 1 < bytes.length) starts.push(i + 1);
  if (start > starts.length) return `range ${range} starts past the last line (${starts.length})`;
  const from = starts[start - 1]!;
  const to = end >= starts.length ? bytes.length : starts[end]!;
  return bytes.subarray(from, to);
}
