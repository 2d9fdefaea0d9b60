/**
 * Keeps the last `maxBytes` bytes written to it, for diagnostics (a child's
 * stderr). Memory stays under twice the limit whatever is written.
 */
export class TailBuffer {
  readonly maxBytes: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes written and no longer kept. */
  get droppedBytes(): number {
    return this.#dropped;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > 2 * this.maxBytes) this.#compact();
  }

  #compact(): void {
    const all = Buffer.concat(this.#chunks, this.#bytes);
    const keep = all.subarray(all.length - this.maxBytes);
    this.#dropped += all.length - keep.length;
    this.#chunks = [Buffer.from(keep)];
    this.#bytes = keep.length;
  }

  /** The kept bytes as UTF-8 (at most `maxBytes`; a split character reads as U+FFFD). */
  toString(): string {
    if (this.#bytes > this.maxBytes) this.#compact();
    return Buffer.concat(this.#chunks, this.#bytes).toString("utf8");
  }
}
