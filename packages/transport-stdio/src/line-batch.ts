import { LINES_PER_WRITE } from "./limits.js";

const settled = Promise.resolve();

/**
 * Lines to one peer, written in batches: the lines that one callback's
 * promise jobs write (the next query of every caller whose answer arrived in
 * one chunk, the answers to every query of one chunk) leave in one write, one
 * system call and one wake-up of the peer. The batch is written by a promise
 * job queued when its first line came (after the jobs already queued, still
 * before the event loop turns; a line written by a job queued later goes in
 * the next write), or at once when {@link LINES_PER_WRITE} are waiting, so
 * that the peer starts on the first lines of a long batch instead of the two
 * processes taking turns. Used by both ends of the stdio transport.
 */
export class LineBatch {
  readonly #write: (text: string) => void;
  #text = "";
  #lines = 0;
  readonly #flushLater = (): void => this.flush();

  /** `write` gets each batch, lines concatenated (each ends with its newline). */
  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  push(line: string): void {
    if (this.#lines === 0) void settled.then(this.#flushLater);
    this.#text += line;
    this.#lines += 1;
    if (this.#lines >= LINES_PER_WRITE) this.flush();
  }

  /** Writes what waits now (nothing when nothing does). */
  flush(): void {
    if (this.#lines === 0) return;
    const text = this.#text;
    this.#text = "";
    this.#lines = 0;
    this.#write(text);
  }
}
