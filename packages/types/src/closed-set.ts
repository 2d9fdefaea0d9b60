/**
 * Closed vocabularies, read the one way both protocol families read them: a
 * listed value is itself; anything else (unknown, absent, not a string) is not.
 */

/** A guard for membership of `values` (only strings can be members). */
export function isOneOf<T extends string>(values: readonly T[]): (value: unknown) => value is T {
  const known: ReadonlySet<string> = new Set(values);
  return (value: unknown): value is T => typeof value === "string" && known.has(value);
}

/**
 * A reader of a closed list of error codes: a listed code is itself, any
 * other value (an unknown code, none, a non-string) reads as `fallback`.
 */
export function codeReader<T extends string>(
  codes: readonly T[],
  fallback: T,
): (code: unknown) => T {
  const known = isOneOf(codes);
  return (code: unknown) => (known(code) ? code : fallback);
}
