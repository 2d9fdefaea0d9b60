// Figures shared by the benches: median, spread and percentiles of samples.

/** The median of `values` (not sorted in place). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `p`th percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `median (min–max, ±x% spread)` of `values`, formatted with `digits`. */
export function spread(values, digits = 0) {
  const m = median(values);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pct = m === 0 ? 0 : ((hi - lo) / 2 / m) * 100;
  return `${m.toFixed(digits)} (${lo.toFixed(digits)}–${hi.toFixed(digits)}, ±${pct.toFixed(0)}%)`;
}

/** The order of `arms` in round `round`: rotated, so no arm always runs first or last. */
export function rotated(arms, round) {
  const k = round % arms.length;
  return [...arms.slice(k), ...arms.slice(0, k)];
}
