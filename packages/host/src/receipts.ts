import { mkdir, open, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { describeIssues, isOcpError } from "@ocp/types";
import { CGP_TIMESTAMP_PATTERN, compareCgpTimestamps } from "@ocp/types/cgp";
import { z } from "zod";
import { hostError } from "./errors.js";
import { MAX_CONSENT_FILE_BYTES, MAX_CONSENT_TEXT_LENGTH } from "./limits.js";

const Timestamp = z.string().regex(CGP_TIMESTAMP_PATTERN, "a UTC timestamp (F4)");
const Text = z.string().min(1).max(MAX_CONSENT_TEXT_LENGTH);

/** Who agreed: a named human or a named policy (context-reuse §3), never an anonymous yes. */
export const GrantorSchema = z.object({ kind: z.enum(["human", "policy"]), id: Text });
export type Grantor = z.infer<typeof GrantorSchema>;

/**
 * A CGP consent receipt (context-reuse §3, C6): the provider identity pinned
 * at grant time, the exact egress scope, who granted it and when, and an
 * optional expiry. `record: "grant"` marks it in the ledger; every other
 * member is the receipt shape of the reference, so an auditor reads it as is.
 */
export const ScopeGrantSchema = z.object({
  record: z.literal("grant"),
  provider_id: Text,
  scope: Text,
  provider_name: Text,
  provider_version: Text,
  grantor: GrantorSchema,
  granted_at: Timestamp,
  expires_at: Timestamp.optional(),
});
export type ScopeGrant = z.infer<typeof ScopeGrantSchema>;

/** A revocation: appended, never an edit, so the ledger keeps the whole history. */
export const ScopeRevocationSchema = z.object({
  record: z.literal("revoke"),
  provider_id: Text,
  scope: Text,
  provider_name: Text,
  provider_version: Text,
  grantor: GrantorSchema,
  revoked_at: Timestamp,
});
export type ScopeRevocation = z.infer<typeof ScopeRevocationSchema>;

export const ScopeRecordSchema = z.discriminatedUnion("record", [
  ScopeGrantSchema,
  ScopeRevocationSchema,
]);
export type ScopeRecord = z.infer<typeof ScopeRecordSchema>;

/** The provider a receipt is about, as the host knows it at grant time. */
export interface ReceiptSubject {
  readonly providerId: string;
  readonly name: string;
  readonly version: string;
}

/**
 * The append-only ledger of CGP consent receipts (C6). In memory by default;
 * with a file (`ReceiptLedger.open(path)`) every grant and revocation is
 * appended as one JSON line and fsync'ed before the ledger believes it. A
 * scope is consented for a provider when the latest record for that
 * provider id and scope is a grant for the same provider name that has not
 * expired. Loading refuses the whole file if any line fails the schema.
 */
export class ReceiptLedger {
  readonly #path: string | undefined;
  readonly #records: ScopeRecord[] = [];
  readonly #latest = new Map<string, ScopeRecord>();
  readonly #now: () => Date;
  #writing: Promise<unknown> = Promise.resolve();

  private constructor(path: string | undefined, now: () => Date) {
    this.#path = path;
    this.#now = now;
  }

  static inMemory(options: { now?: () => Date } = {}): ReceiptLedger {
    return new ReceiptLedger(undefined, options.now ?? (() => new Date()));
  }

  /**
   * Opens (or, on first write, creates) a ledger file and replays it. Throws
   * `consent_file_corrupt` naming the first bad line, `consent_file_too_large`
   * past {@link MAX_CONSENT_FILE_BYTES}, `consent_file_unreadable`.
   */
  static async open(path: string, options: { now?: () => Date } = {}): Promise<ReceiptLedger> {
    const ledger = new ReceiptLedger(path, options.now ?? (() => new Date()));
    let text: string;
    try {
      const info = await stat(path);
      if (info.size > MAX_CONSENT_FILE_BYTES) {
        throw hostError(
          "consent_file_too_large",
          `receipt ledger ${path} is ${info.size} bytes, more than ${MAX_CONSENT_FILE_BYTES}`,
          { details: { path, size: info.size, max: MAX_CONSENT_FILE_BYTES } },
        );
      }
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return ledger;
      if (isOcpError(error)) throw error;
      throw hostError("consent_file_unreadable", `cannot read receipt ledger ${path}`, {
        cause: error,
        details: { path, errno: (error as NodeJS.ErrnoException).code },
      });
    }
    for (const entry of parseReceiptLedger(text, path)) ledger.#apply(entry);
    return ledger;
  }

  get path(): string | undefined {
    return this.#path;
  }

  /** Every record, oldest first (grants and revocations). */
  records(): readonly ScopeRecord[] {
    return [...this.#records];
  }

  /** The grant in force for this provider and scope, if any (expired grants do not count). */
  liveGrant(subject: ReceiptSubject, scope: string): ScopeGrant | undefined {
    const latest = this.#latest.get(key(subject.providerId, scope));
    if (latest === undefined || latest.record !== "grant") return undefined;
    if (latest.provider_name !== subject.name) return undefined;
    // Compared as instants: `…:00Z` and `…:00.000Z` are one instant, two spellings.
    if (latest.expires_at !== undefined) {
      const order = compareCgpTimestamps(stamp(this.#now()), latest.expires_at);
      if (order === undefined || order >= 0) return undefined;
    }
    return latest;
  }

  /** C6: the scopes of `scopes` that have no live grant, in order. */
  missingScopes(subject: ReceiptSubject, scopes: readonly string[]): string[] {
    return scopes.filter((scope) => this.liveGrant(subject, scope) === undefined);
  }

  /** Appends a grant for one scope; resolves once durable. */
  grant(
    subject: ReceiptSubject,
    scope: string,
    grantor: Grantor,
    options: { expiresAt?: string } = {},
  ): Promise<ScopeGrant> {
    return this.#record({
      record: "grant",
      provider_id: subject.providerId,
      scope,
      provider_name: subject.name,
      provider_version: subject.version,
      grantor,
      granted_at: stamp(this.#now()),
      ...(options.expiresAt === undefined ? {} : { expires_at: options.expiresAt }),
    }) as Promise<ScopeGrant>;
  }

  /** Appends a revocation for one scope (even of nothing: intent is never lost). */
  revoke(subject: ReceiptSubject, scope: string, grantor: Grantor): Promise<ScopeRevocation> {
    return this.#record({
      record: "revoke",
      provider_id: subject.providerId,
      scope,
      provider_name: subject.name,
      provider_version: subject.version,
      grantor,
      revoked_at: stamp(this.#now()),
    }) as Promise<ScopeRevocation>;
  }

  #apply(entry: ScopeRecord): void {
    this.#records.push(entry);
    this.#latest.set(key(entry.provider_id, entry.scope), entry);
  }

  #record(value: unknown): Promise<ScopeRecord> {
    const parsed = ScopeRecordSchema.safeParse(value);
    if (!parsed.success) {
      return Promise.reject(
        hostError("invalid_option", `invalid consent receipt: ${describeIssues(parsed.error)}`),
      );
    }
    const entry = parsed.data;
    const run = this.#writing.then(async () => {
      if (this.#path !== undefined) await appendDurably(this.#path, entry);
      this.#apply(entry);
      return entry;
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }
}

function key(providerId: string, scope: string): string {
  return `${providerId}\u0000${scope}`;
}

/** F4: the host's clock as a UTC timestamp. */
function stamp(date: Date): string {
  return date.toISOString();
}

async function appendDurably(path: string, entry: ScopeRecord): Promise<void> {
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
      details: { path, record: entry.record, provider: entry.provider_id, scope: entry.scope },
    });
  }
}

/**
 * Parses a whole ledger: one record per line, every line ending in a newline.
 * A line that is not JSON, fails the schema, is blank or is cut off fails
 * the whole load with `consent_file_corrupt` naming the 1-based line.
 */
export function parseReceiptLedger(text: string, path = "(receipt ledger)"): ScopeRecord[] {
  if (text === "") return [];
  const lines = text.split("\n");
  const last = lines.pop();
  const corrupt = (line: number, why: string) =>
    hostError("consent_file_corrupt", `receipt ledger ${path} is corrupt at line ${line}: ${why}`, {
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
    const parsed = ScopeRecordSchema.safeParse(value);
    if (!parsed.success) throw corrupt(index + 1, describeIssues(parsed.error));
    return parsed.data;
  });
}
