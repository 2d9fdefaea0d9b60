/**
 * The format grammars of the Context Graph Protocol (SPEC §5.1, §6.1, §6.2):
 * digests, timestamps and embedding fingerprints.
 */

/** F5 / D1: a digest is `sha256:` and 64 lowercase hex digits, nothing else. */
export const DIGEST_PATTERN: RegExp = /^sha256:[0-9a-f]{64}$/;

/**
 * F4: the temporal profile, a strict subset of RFC 3339 —
 * `YYYY-MM-DDTHH:MM:SS(.f+)?Z`, uppercase `T` and `Z`, UTC only. The pattern
 * is the shape; {@link isCgpTimestamp} also checks the calendar.
 */
export const CGP_TIMESTAMP_PATTERN: RegExp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** E1: an embedding fingerprint, `<model-id>/<dimensions>[/<normalization>]`. */
export const EMBEDDINGS_FINGERPRINT_PATTERN: RegExp = /^[^/]+\/[0-9]+(\/[^/]+)?$/;

/** F5 / D1: whether `value` is a well-formed digest ({@link DIGEST_PATTERN}). */
export function isWellFormedDigest(value: unknown): value is string {
  return typeof value === "string" && DIGEST_PATTERN.test(value);
}

function daysIn(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * F4: whether `value` is a timestamp in the protocol's profile: the shape of
 * {@link CGP_TIMESTAMP_PATTERN} naming a real instant (month 1-12, a day the
 * month has, hour ≤ 23, minute ≤ 59, second ≤ 60 for a leap second).
 */
export function isCgpTimestamp(value: unknown): value is string {
  if (typeof value !== "string" || !CGP_TIMESTAMP_PATTERN.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const hour = Number(value.slice(11, 13));
  const minute = Number(value.slice(14, 16));
  const second = Number(value.slice(17, 19));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  return hour <= 23 && minute <= 59 && second <= 60;
}

/**
 * The dimension an embedding fingerprint declares, or `undefined` when the
 * fingerprint does not follow the grammar. `"bge-small-en-v1.5/384/l2"` → 384.
 */
export function fingerprintDimensions(fingerprint: string): number | undefined {
  if (!EMBEDDINGS_FINGERPRINT_PATTERN.test(fingerprint)) return undefined;
  return Number(fingerprint.split("/")[1]);
}
