/** A fixed-bucket histogram, as the Prometheus exposition counts one (metrics.ts). */
export class Histogram {
  /** `counts[i]`: observations in (bounds[i-1], bounds[i]]; above the last bound only in `count`. */
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly bounds: readonly number[]) {
    this.counts = bounds.map(() => 0);
  }
  observe(value: number): void {
    this.sum += value;
    this.count += 1;
    const i = this.bounds.findIndex((bound) => value <= bound);
    if (i >= 0) this.counts[i]! += 1;
  }
}
