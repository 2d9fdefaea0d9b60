/**
 * Bloom filters of the ids a replay window had to evict, one per span of
 * deadlines (an hour by default), each dropped once every deadline it covers
 * has passed. Portable (no `Buffer`, no `node:crypto`): two 32-bit FNV-1a
 * hashes of the id's UTF-16 code units, combined by double hashing into
 * {@link HASHES} bit positions.
 */

/** Bit positions per id: optimal for ~10 bits per id (1% false positives). */
const HASHES = 7;
/** Ids one filter takes before its false-positive rate passes ~1%. */
const BITS_PER_ID = 10;

interface Filter {
  readonly bits: Uint32Array;
  count: number;
  /** Past its capacity: every lookup in its span answers "may hold". */
  overflowed: boolean;
}

export class EvictedIds {
  readonly #filters = new Map<number, Filter>();
  readonly #maxFilters: number;
  readonly #bitsPerFilter: number;
  readonly #capacity: number;
  readonly #spanMs: number;

  constructor(maxBytes: number, bytesPerFilter: number, spanMs: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0)
      throw new RangeError("filterBytes must be a non-negative integer");
    if (
      !Number.isSafeInteger(bytesPerFilter) ||
      bytesPerFilter < 64 ||
      (bytesPerFilter & (bytesPerFilter - 1)) !== 0
    )
      throw new RangeError("bytesPerFilter must be a power of two, at least 64");
    if (!(spanMs > 0)) throw new RangeError("filterSpanMs must be positive");
    this.#maxFilters = Math.floor(maxBytes / bytesPerFilter);
    this.#bitsPerFilter = bytesPerFilter * 8;
    this.#capacity = Math.floor(this.#bitsPerFilter / BITS_PER_ID);
    this.#spanMs = spanMs;
  }

  get bytes(): number {
    return (this.#filters.size * this.#bitsPerFilter) / 8;
  }

  /** Records an evicted id; false when no filter can take it (the caller raises its floor). */
  add(id: string, deadlineMs: number): boolean {
    const span = Math.floor(deadlineMs / this.#spanMs);
    let filter = this.#filters.get(span);
    if (filter === undefined) {
      if (this.#filters.size >= this.#maxFilters) return false;
      filter = { bits: new Uint32Array(this.#bitsPerFilter / 32), count: 0, overflowed: false };
      this.#filters.set(span, filter);
    }
    if (filter.count >= this.#capacity) {
      filter.overflowed = true;
      return true;
    }
    const [h1, h2] = hashes(id);
    const mask = this.#bitsPerFilter - 1;
    for (let i = 0; i < HASHES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & mask;
      filter.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
    filter.count++;
    return true;
  }

  /** Whether `id` with this deadline may have been evicted (false: certainly not). */
  mayHold(id: string, deadlineMs: number): boolean {
    const filter = this.#filters.get(Math.floor(deadlineMs / this.#spanMs));
    if (filter === undefined) return false;
    if (filter.overflowed) return true;
    const [h1, h2] = hashes(id);
    const mask = this.#bitsPerFilter - 1;
    for (let i = 0; i < HASHES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & mask;
      if ((filter.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** Drops the filters whose every deadline is before `nowMs`. */
  expire(nowMs: number): void {
    if (this.#filters.size === 0) return;
    const current = Math.floor(nowMs / this.#spanMs);
    for (const span of this.#filters.keys()) if (span < current) this.#filters.delete(span);
  }
}

/** Two independent 32-bit FNV-1a hashes (different offset bases); the second made odd. */
function hashes(id: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return [a >>> 0, (b | 1) >>> 0];
}
