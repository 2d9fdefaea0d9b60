/**
 * Reads an overridable limit: `fallback` when the caller gave none, else the
 * caller's value, which must be a positive integer. A limit of 0 never means
 * "unlimited": it is refused like any other non-positive value.
 *
 * @throws {RangeError} naming the option and the value.
 */
export function positiveLimit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer (got ${String(value)})`);
  }
  return value;
}

/**
 * Most frame identities one `verify` request may name (SPEC §9); a longer
 * request is answered `bad_request`, so a host cannot make a provider re-read
 * its sources without bound in one exchange.
 */
export const MAX_VERIFY_FRAMES = 1024;
