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
