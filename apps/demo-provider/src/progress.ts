import type { IndexProgress } from "./corpus.js";

/** Width of the bar in characters. */
const BAR_WIDTH = 30;
/** Redraws at most this often (ms), so a huge tree does not flood the terminal. */
const REDRAW_MS = 100;

/**
 * A progress bar on stderr while indexing: redrawn in place on a terminal;
 * on anything else (a pipe, a log file) only the summary line is written, so
 * logs stay readable. stdout is never touched: it may carry the protocol.
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  let last = 0;
  const tty = stream.isTTY === true;
  return {
    update(progress: IndexProgress): void {
      if (!tty) return;
      const now = Date.now();
      if (now - last < REDRAW_MS && progress.done !== progress.total) return;
      last = now;
      const ratio = progress.total === 0 ? 1 : progress.done / progress.total;
      const filled = Math.round(ratio * BAR_WIDTH);
      stream.write(
        `\rindexing [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${Math.round(ratio * 100)}% ${progress.done}/${progress.total} files`,
      );
    },
    done(summary: string): void {
      if (tty) stream.write("\r\x1b[K");
      stream.write(`${summary}\n`);
    },
  };
}
