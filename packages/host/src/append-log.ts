/**
 * The append-only JSON-lines file under both consent stores (the ocp/1
 * `ConsentStore` and the contextgraph/1 `ReceiptLedger`): bounded load that
 * refuses the whole file on any bad line (skipping one could silently drop a
 * revocation), and appends that are fsync'ed, in call order, before the store
 * believes them.
 */
import { mkdir, open, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { describeIssues, isOcpError } from "@ocp/types";
import type { z } from "zod";
import { hostError } from "./errors.js";
import { MAX_CONSENT_FILE_BYTES } from "./limits.js";

/** What one kind of append-only file holds and how its messages name it. */
export interface AppendLogKind<T> {
  /** How messages name the file: "consent file", "receipt ledger". */
  readonly label: string;
  /** One line's schema. */
  readonly schema: z.ZodType<T>;
  /** Facts about an entry that failed to append, for `consent_write_failed`'s details. */
  readonly describe: (entry: T) => Record<string, unknown>;
}

/**
 * Parses a whole file: one entry per line, every line ending in a newline.
 * A line that is not JSON, fails the schema, is blank, or is cut off (no
 * final newline) fails the whole load with `consent_file_corrupt` naming the
 * 1-based line number.
 */
export function parseAppendLog<T>(kind: AppendLogKind<T>, text: string, path: string): T[] {
  if (text === "") return [];
  const lines = text.split("\n");
  const last = lines.pop();
  const corrupt = (line: number, why: string) =>
    hostError("consent_file_corrupt", `${kind.label} ${path} is corrupt at line ${line}: ${why}`, {
      details: { path, line, reason: why },
    });
  if (last !== "") throw corrupt(lines.length + 1, "truncated line (no final newline)");
  return lines.map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw corrupt(index + 1, line.trim() === "" ? "blank line" : "not JSON");
    }
    const parsed = kind.schema.safeParse(value);
    if (!parsed.success) throw corrupt(index + 1, describeIssues(parsed.error));
    return parsed.data;
  });
}

/**
 * Reads and parses the file at `path`; a missing file is empty. Throws
 * `consent_file_too_large` past {@link MAX_CONSENT_FILE_BYTES} (before
 * reading it), `consent_file_unreadable`, or `consent_file_corrupt`.
 */
export async function readAppendLog<T>(kind: AppendLogKind<T>, path: string): Promise<T[]> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.size > MAX_CONSENT_FILE_BYTES) {
      throw hostError(
        "consent_file_too_large",
        `${kind.label} ${path} is ${info.size} bytes, more than ${MAX_CONSENT_FILE_BYTES}`,
        { details: { path, size: info.size, max: MAX_CONSENT_FILE_BYTES } },
      );
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    if (isOcpError(error)) throw error;
    throw hostError("consent_file_unreadable", `cannot read ${kind.label} ${path}`, {
      cause: error,
      details: { path, errno: (error as NodeJS.ErrnoException).code },
    });
  }
  return parseAppendLog(kind, text, path);
}

/**
 * Serialises appends: each entry is written (when there is a file) and
 * fsync'ed, then `apply` runs; a failed write leaves memory untouched and
 * does not block the appends after it.
 */
export class AppendLog<T> {
  readonly #kind: AppendLogKind<T>;
  readonly #path: string | undefined;
  #writing: Promise<unknown> = Promise.resolve();

  constructor(kind: AppendLogKind<T>, path: string | undefined) {
    this.#kind = kind;
    this.#path = path;
  }

  get path(): string | undefined {
    return this.#path;
  }

  /** Appends `entry` after every earlier append; resolves with it once durable and applied. */
  append<E extends T>(entry: E, apply: (entry: E) => void): Promise<E> {
    const run = this.#writing.then(async () => {
      if (this.#path !== undefined) await this.#appendDurably(this.#path, entry);
      apply(entry);
      return entry;
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }

  async #appendDurably(path: string, entry: T): Promise<void> {
    try {
      await mkdir(dirname(path), { recursive: true });
      const handle = await open(path, "a", 0o600);
      try {
        await handle.appendFile(`${JSON.stringify(entry)}\n`, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw hostError("consent_write_failed", `could not append a consent receipt to ${path}`, {
        cause: error,
        details: { path, ...this.#kind.describe(entry) },
      });
    }
  }
}
