import { MAX_STDERR_SHOWN_CHARS } from "./limits.js";

/** Lines of a stack trace or a runtime's trailer: they never name the cause. */
const NOISE = [
  /^\s+at\s/, // JavaScript, Java: a stack frame
  /^\s+File ".*", line \d+/, // Python: a stack frame
  /^\s*\.\.\. \d+ more/, // Java: elided frames
  /^Node\.js v\d/, // Node's version trailer
  /^[\s{}[\]();,^~]*$/, // brackets, carets, blank
];

/** A line that names why the program failed. */
const CAUSE =
  /error|exception|cannot|can't|could not|not found|no such|denied|refused|invalid|missing|fatal|panic|failed|unable/i;

/**
 * What a failed child's stderr says about why it failed, for an error
 * message: the first and the last line naming a cause (an `Error: …`, a
 * Python exception, `no such file …`), or, when none does, its last two
 * lines, with stack frames and the runtime's trailer left out, at most
 * `maxChars` characters. The start of a long stack trace (where Node names
 * the missing module) and the end (where Python names the exception) both
 * reach the user, not a cut through the middle of the frames.
 */
export function stderrSummary(stderr: string, maxChars = MAX_STDERR_SHOWN_CHARS): string {
  const lines = stderr
    .split(/\r?\n/)
    .filter((line) => !NOISE.some((noise) => noise.test(line)))
    .map((line) => line.trim());
  const causes = lines.filter((line) => CAUSE.test(line));
  const picked = causes.length > 0 ? [causes[0]!, causes.at(-1)!] : lines.slice(-2);
  const unique = picked.filter((line, at) => picked.indexOf(line) === at);
  const each = Math.max(1, Math.floor(maxChars / Math.max(1, unique.length)) - 3);
  const shown = unique
    .map((line) => (line.length > each ? `${line.slice(0, each - 1)}…` : line))
    .join(" … ");
  return shown.length > maxChars ? `${shown.slice(0, maxChars - 1)}…` : shown;
}

/** ` (stderr: SUMMARY)` for an error message, or "" when the child wrote nothing useful. */
export function stderrNote(stderr: string): string {
  const summary = stderrSummary(stderr);
  return summary === "" ? "" : ` (stderr: ${summary})`;
}
