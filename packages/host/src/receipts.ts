import { describeIssues } from "@ocp/types";
import { CGP_TIMESTAMP_PATTERN, compareCgpTimestamps } from "@ocp/types/cgp";
import { z } from "zod";
import { AppendLog, type AppendLogKind, parseAppendLog, readAppendLog } from "./append-log.js";
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

const RECEIPT_LEDGER: AppendLogKind<ScopeRecord> = {
  label: "receipt ledger",
  schema: ScopeRecordSchema,
  describe: (entry) => ({
    record: entry.record,
    provider: entry.provider_id,
    scope: entry.scope,
  }),
};

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
  readonly #log: AppendLog<ScopeRecord>;
  readonly #records: ScopeRecord[] = [];
  readonly #latest = new Map<string, ScopeRecord>();
  readonly #now: () => Date;

  private constructor(path: string | undefined, now: () => Date) {
    this.#log = new AppendLog(RECEIPT_LEDGER, path);
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
    for (const entry of await readAppendLog(RECEIPT_LEDGER, path)) ledger.#apply(entry);
    return ledger;
  }

  get path(): string | undefined {
    return this.#log.path;
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
    return this.#log.append(parsed.data, (entry) => this.#apply(entry));
  }
}

function key(providerId: string, scope: string): string {
  return `${providerId}\u0000${scope}`;
}

/** F4: the host's clock as a UTC timestamp. */
function stamp(date: Date): string {
  return date.toISOString();
}

/**
 * Parses a whole ledger: one record per line, every line ending in a newline.
 * A line that is not JSON, fails the schema, is blank or is cut off fails
 * the whole load with `consent_file_corrupt` naming the 1-based line.
 */
export function parseReceiptLedger(text: string, path = "(receipt ledger)"): ScopeRecord[] {
  return parseAppendLog(RECEIPT_LEDGER, text, path);
}
