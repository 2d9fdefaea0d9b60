import { termsOf } from "./corpus.js";
import { MIN_PART_CONTENT_TOKENS, MIN_PART_TOKENS } from "./limits.js";
import { countTokens } from "./tokens.js";

/** A contiguous run of lines cut from an entry to fit a budget. */
export interface Part {
  /** First line, 1-based, in the file. */
  readonly start: number;
  /** Last line, 1-based, inclusive, in the file. */
  readonly end: number;
  /** The exact lines, joined by `\n`. */
  readonly content: string;
  /** Exact count of `content` (o200k_base, or the counter given); never above the budget. */
  readonly tokens: number;
}

function matches(lineTerm: string, queryTerm: string): boolean {
  return lineTerm === queryTerm || (queryTerm.length > 3 && lineTerm.startsWith(queryTerm));
}

/** How many of the query's terms a line mentions (each counted once). */
function relevance(line: string, query: ReadonlySet<string>): number {
  if (query.size === 0) return 0;
  const terms = termsOf(line);
  let n = 0;
  for (const q of query) if (terms.some((t) => matches(t, q))) n++;
  return n;
}

/**
 * The best-fitting part of a text that is over `budget` tokens: the contiguous
 * run of lines within `budget` that mentions the query's terms most often
 * (ties go to the earliest, so a section's heading and opening are preferred),
 * with blank lines trimmed from both ends. Its token count is exact: lines are
 * dropped from the end until the joined text fits. `undefined` when `budget`
 * is under {@link MIN_PART_TOKENS}, or no run of lines of at least
 * {@link MIN_PART_CONTENT_TOKENS} fits in it (a lone heading says nothing).
 *
 * `firstLine` is the file line number of the text's first line.
 */
export function fitPart(
  content: string,
  firstLine: number,
  budget: number,
  queryText: string,
  count: (text: string) => number = countTokens,
): Part | undefined {
  if (budget < MIN_PART_TOKENS) return undefined;
  const lines = content.split("\n");
  const query = new Set(termsOf(queryText));
  // Each line's cost with its newline: an estimate, checked exactly below.
  const cost = lines.map((line) => count(line) + 1);
  const score = lines.map((line) => relevance(line, query));
  let best: { from: number; to: number; score: number } | undefined;
  let to = -1;
  let sumCost = 0;
  let sumScore = 0;
  for (let from = 0; from < lines.length; from++) {
    if (to < from - 1) {
      to = from - 1;
      sumCost = 0;
      sumScore = 0;
    }
    while (to + 1 < lines.length && sumCost + (cost[to + 1] ?? 0) <= budget + 1) {
      to++;
      sumCost += cost[to] ?? 0;
      sumScore += score[to] ?? 0;
    }
    if (to >= from && (best === undefined || sumScore > best.score)) {
      best = { from, to, score: sumScore };
    }
    if (to >= from) {
      sumCost -= cost[from] ?? 0;
      sumScore -= score[from] ?? 0;
    }
  }
  if (best === undefined) return undefined;
  let { from, to: last } = best;
  const blank = (i: number) => (lines[i] ?? "").trim() === "";
  while (from <= last && blank(from)) from++;
  while (last >= from && blank(last)) last--;
  while (last >= from) {
    const text = lines.slice(from, last + 1).join("\n");
    const tokens = count(text);
    if (tokens < MIN_PART_CONTENT_TOKENS) return undefined;
    if (tokens <= budget) {
      return { start: firstLine + from, end: firstLine + last, content: text, tokens };
    }
    last--;
    while (last >= from && blank(last)) last--;
  }
  return undefined;
}
