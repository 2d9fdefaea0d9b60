import { type OcpError, positiveLimit } from "@ocp/types";
import { stdioError } from "./errors.js";
import { MAX_LINE_BYTES } from "./limits.js";

export interface LineSplitterOptions {
  /** Longest line accepted, in bytes, newline excluded. Default {@link MAX_LINE_BYTES}. */
  readonly maxLineBytes?: number;
  /** Called with every complete, non-blank line, without its `\n`. */
  readonly onLine: (line: string) => void;
  /**
   * Called once per line that grows past the limit, as soon as it does (not
   * when its newline arrives). The rest of that line is skipped: splitting
   * resumes after its newline.
   */
  readonly onOverflow: (error: OcpError<"line_too_long">) => void;
}

const NEWLINE = 0x0a;

/**
 * NDJSON framing, apart from any I/O: feed it chunks of bytes, it emits whole
 * lines decoded as UTF-8 (a character split across chunks is joined before
 * decoding). It never holds more than `maxLineBytes` of one line.
 */
export class LineSplitter {
  readonly maxLineBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onOverflow: (error: OcpError<"line_too_long">) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;

  constructor(options: LineSplitterOptions) {
    this.maxLineBytes = positiveLimit("maxLineBytes", options.maxLineBytes, MAX_LINE_BYTES);
    this.#onLine = options.onLine;
    this.#onOverflow = options.onOverflow;
  }

  /** Bytes of the current, incomplete line held in memory. */
  get bufferedBytes(): number {
    return this.#pendingBytes;
  }

  push(chunk: Buffer): void {
    if (this.#pendingBytes === 0 && !this.#discarding && chunk[chunk.length - 1] === NEWLINE) {
      this.#whole(chunk);
      return;
    }
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#accumulate(chunk.subarray(start));
        return;
      }
      if (this.#discarding) {
        this.#discarding = false;
      } else {
        this.#complete(chunk, start, newline);
      }
      start = newline + 1;
    }
  }

  /**
   * A chunk of whole lines with nothing pending (the usual case): decoded in
   * one call, then split as text (a newline byte is never part of a UTF-8
   * sequence, so the lines are those of the bytes). A line's byte length is
   * computed only when its length in UTF-16 units cannot settle the limit.
   */
  #whole(chunk: Buffer): void {
    const text = chunk.toString("utf8");
    const max = this.maxLineBytes;
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      const line = text.slice(start, newline);
      start = newline + 1;
      newline = text.indexOf("\n", start);
      const units = line.length;
      if (units * 3 > max) {
        const bytes = Buffer.byteLength(line, "utf8");
        if (bytes > max) {
          this.#overflow(bytes);
          continue;
        }
      }
      if (units > 0 && line !== "\r") this.#onLine(line);
    }
  }

  #complete(chunk: Buffer, start: number, end: number): void {
    const length = this.#pendingBytes + (end - start);
    if (length > this.maxLineBytes) {
      this.#reset();
      this.#overflow(length);
      return;
    }
    let line: string;
    if (this.#pendingBytes === 0) {
      line = chunk.toString("utf8", start, end);
    } else {
      this.#pending.push(chunk.subarray(start, end));
      line = Buffer.concat(this.#pending, length).toString("utf8");
      this.#reset();
    }
    if (line.length > 0 && line !== "\r") this.#onLine(line);
  }

  #accumulate(part: Buffer): void {
    if (this.#discarding) return;
    const length = this.#pendingBytes + part.length;
    if (length > this.maxLineBytes) {
      this.#reset();
      this.#discarding = true;
      this.#overflow(length);
      return;
    }
    this.#pending.push(part);
    this.#pendingBytes = length;
  }

  #reset(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #overflow(received: number): void {
    this.#onOverflow(
      stdioError(
        "line_too_long",
        `NDJSON line longer than ${this.maxLineBytes} bytes (at least ${received} received)`,
        { details: { limit: this.maxLineBytes, received } },
      ),
    );
  }
}
