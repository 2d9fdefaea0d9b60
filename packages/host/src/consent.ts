import { describeIssues } from "@ocp/types";
import { z } from "zod";
import { AppendLog, type AppendLogKind, parseAppendLog, readAppendLog } from "./append-log.js";
import { hostError } from "./errors.js";
import { MAX_CONSENT_FILE_BYTES, MAX_CONSENT_TEXT_LENGTH } from "./limits.js";

/**
 * One consent receipt: a line of the consent file. A grant names what leaves
 * the machine, who granted it and when (C1); a revoke is recorded the same
 * way (`granted_by` then names who revoked). Consent binds the provider id
 * AND its declared name: a different provider under the same id is not
 * consented.
 */
export const ConsentReceiptSchema = z.object({
  op: z.enum(["grant", "revoke"]),
  provider: z.string().min(1),
  name: z.string().min(1),
  what_leaves: z.string().max(MAX_CONSENT_TEXT_LENGTH),
  granted_by: z.string().min(1).max(MAX_CONSENT_TEXT_LENGTH),
  at: z.iso.datetime({ offset: true }),
});
export type ConsentReceipt = z.infer<typeof ConsentReceiptSchema>;

const CONSENT_FILE: AppendLogKind<ConsentReceipt> = {
  label: "consent file",
  schema: ConsentReceiptSchema,
  describe: (receipt) => ({ op: receipt.op, provider: receipt.provider }),
};

/** What a caller supplies to grant consent; `at` is stamped by the store. */
export interface ConsentGrant {
  readonly provider: string;
  readonly name: string;
  readonly what_leaves: string;
  readonly granted_by: string;
}

/** What a caller supplies to revoke consent. */
export interface ConsentRevocation {
  readonly provider: string;
  readonly revoked_by: string;
}

/**
 * Records consent to egress providers (C1, C2). In memory by default; with a
 * file (`ConsentStore.open(path)`) every grant and revoke is appended as one
 * JSON line and fsync'ed before the store believes it, so a restarted host
 * remembers. Loading refuses the whole file if any line fails the schema:
 * skipping a line could silently drop a revocation.
 */
export class ConsentStore {
  readonly #log: AppendLog<ConsentReceipt>;
  readonly #receipts: ConsentReceipt[] = [];
  /** Latest receipt per provider id. */
  readonly #latest = new Map<string, ConsentReceipt>();
  readonly #now: () => Date;

  private constructor(path: string | undefined, now: () => Date) {
    this.#log = new AppendLog(CONSENT_FILE, path);
    this.#now = now;
  }

  /** A store that forgets everything when the process ends. */
  static inMemory(options: { now?: () => Date } = {}): ConsentStore {
    return new ConsentStore(undefined, options.now ?? (() => new Date()));
  }

  /**
   * Opens (or, on first write, creates) a consent file and replays its
   * receipts. Throws `consent_file_corrupt` naming the first bad line, and
   * `consent_file_too_large` past {@link MAX_CONSENT_FILE_BYTES}.
   */
  static async open(path: string, options: { now?: () => Date } = {}): Promise<ConsentStore> {
    const store = new ConsentStore(path, options.now ?? (() => new Date()));
    for (const receipt of await readAppendLog(CONSENT_FILE, path)) store.#apply(receipt);
    return store;
  }

  /** The file this store persists to, if any. */
  get path(): string | undefined {
    return this.#log.path;
  }

  /** Every receipt, oldest first. */
  receipts(): readonly ConsentReceipt[] {
    return [...this.#receipts];
  }

  /**
   * The grant in force for this provider id and declared name, if any. A grant
   * recorded for another name under the same id does not count.
   */
  activeGrant(provider: string, name: string): ConsentReceipt | undefined {
    const latest = this.#latest.get(provider);
    return latest !== undefined && latest.op === "grant" && latest.name === name
      ? latest
      : undefined;
  }

  isGranted(provider: string, name: string): boolean {
    return this.activeGrant(provider, name) !== undefined;
  }

  /** Records a grant; resolves once it is durable (fsync'ed when file-backed). */
  grant(grant: ConsentGrant): Promise<ConsentReceipt> {
    const receipt = this.#parseNew({
      op: "grant",
      provider: grant.provider,
      name: grant.name,
      what_leaves: grant.what_leaves,
      granted_by: grant.granted_by,
      at: this.#now().toISOString(),
    });
    return this.#record(receipt);
  }

  /**
   * Records a revocation, whatever the current state (a revoke of nothing is
   * still a receipt, so intent is never lost). Resolves once durable.
   */
  revoke(revocation: ConsentRevocation): Promise<ConsentReceipt> {
    const latest = this.#latest.get(revocation.provider);
    const receipt = this.#parseNew({
      op: "revoke",
      provider: revocation.provider,
      name: latest?.name ?? revocation.provider,
      what_leaves: latest?.what_leaves ?? "",
      granted_by: revocation.revoked_by,
      at: this.#now().toISOString(),
    });
    return this.#record(receipt);
  }

  #parseNew(value: unknown): ConsentReceipt {
    const parsed = ConsentReceiptSchema.safeParse(value);
    if (!parsed.success) {
      throw hostError("invalid_option", `invalid consent receipt: ${describeIssues(parsed.error)}`);
    }
    return parsed.data;
  }

  #apply(receipt: ConsentReceipt): void {
    this.#receipts.push(receipt);
    this.#latest.set(receipt.provider, receipt);
  }

  /** Appends, in call order; memory changes only after the write is durable. */
  #record(receipt: ConsentReceipt): Promise<ConsentReceipt> {
    return this.#log.append(receipt, (entry) => this.#apply(entry));
  }
}

/**
 * Parses a whole consent file: one receipt per line, every line ending in a
 * newline. Any line that is not JSON, fails the schema, is blank, or is cut
 * off (no final newline) fails the whole load with `consent_file_corrupt`
 * naming the 1-based line number.
 */
export function parseConsentFile(text: string, path = "(consent file)"): ConsentReceipt[] {
  return parseAppendLog(CONSENT_FILE, text, path);
}
