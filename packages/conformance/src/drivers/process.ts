/**
 * Process-group and stderr helpers of the stdio driver (the transport keeps
 * its own internal).
 */

/** Sends `signal` to the whole process group led by `pid`; a group already gone is fine. */
export function killGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** Keeps the latest `maxBytes` bytes written to it (a child's stderr, for evidence). */
export class StderrTail {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (
      this.#bytes - (this.#chunks[0]?.length ?? 0) >= this.#maxBytes &&
      this.#chunks.length > 1
    ) {
      this.#bytes -= this.#chunks.shift()!.length;
    }
  }

  toString(): string {
    const all = Buffer.concat(this.#chunks);
    return all.subarray(Math.max(0, all.length - this.#maxBytes)).toString("utf8");
  }
}
