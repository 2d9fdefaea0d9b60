/**
 * Version vectors: replica (agent URI) → counter. A node version written by
 * agent A carries the vector of the version it replaced with A's entry raised
 * to A's next edit counter, so "happened before" is pointwise `<=`.
 */
export type VersionVector = Readonly<Record<string, number>>;

/** How two vectors relate. */
export type Ordering = "equal" | "before" | "after" | "concurrent";

/** Compares `a` with `b`: `before` when `a` is dominated by `b`, `after` when it dominates. */
export function compareVectors(a: VersionVector, b: VersionVector): Ordering {
  let less = false;
  let greater = false;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[key] ?? 0;
    const y = b[key] ?? 0;
    if (x < y) less = true;
    else if (x > y) greater = true;
    if (less && greater) return "concurrent";
  }
  if (less) return "before";
  if (greater) return "after";
  return "equal";
}

/** Pointwise maximum: the least vector that dominates both. */
export function mergeVectors(a: VersionVector, b: VersionVector): Record<string, number> {
  const out: Record<string, number> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (value > (out[key] ?? 0)) out[key] = value;
  }
  return sortedVector(out);
}

/** The vector with `replica`'s entry set to `counter` (which must exceed the current entry). */
export function withEntry(
  v: VersionVector,
  replica: string,
  counter: number,
): Record<string, number> {
  return sortedVector({ ...v, [replica]: counter });
}

/** Sum of the entries: the first key of the deterministic conflict order. */
export function vectorSum(v: VersionVector): number {
  let sum = 0;
  for (const value of Object.values(v)) sum += value;
  return sum;
}

/** The same vector with keys in code-point order, so equal vectors print equally. */
export function sortedVector(v: VersionVector): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(v).sort()) {
    const value = v[key];
    if (value !== undefined && value > 0) out[key] = value;
  }
  return out;
}
