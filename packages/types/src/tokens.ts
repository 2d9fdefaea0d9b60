/**
 * `@ocp/types/tokens`: the one token counter of the Open Context side. The
 * host audits declared costs with it (T1), the suite's cost-truth check counts
 * with it, and providers built with `@ocp/types/kit` declare costs with it, so
 * the three agree to the token. Needs the `gpt-tokenizer` peer.
 */
import { countTokens as countO200k, isWithinTokenLimit } from "gpt-tokenizer/encoding/o200k_base";
import { utf8ByteLength } from "./cgp/bytes.js";

/** The BPE every declared cost is audited in (the GPT-4o family's). */
export const TOKENIZER = "o200k_base";

/**
 * The one tokenizer policy: text is text. A special-token spelling such as
 * `<|endoftext|>` in content counts as the ordinary text it is (gpt-tokenizer
 * would otherwise throw `Disallowed special token`), everywhere we count.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Texts shorter than this are counted every time: the BPE of a short text
 * costs about what a lookup does.
 */
export const MEMO_MIN_CHARS = 32;
/**
 * Texts longer than this are counted every time: the memo is for the
 * frame-sized texts an audit sees again and again.
 */
export const MEMO_MAX_KEY_CHARS = 16_383;
/** Bound on the characters the memo holds (about 8 MB at most). */
export const MEMO_MAX_CHARS = 4_000_000;
/**
 * Most remembered texts that share one key (see `keyOf`); a further text
 * under that key replaces the one remembered longest ago.
 */
export const MEMO_BUCKET_SIZE = 4;

/** Characters a key samples, evenly spread over the text. */
const KEY_SAMPLES = 32;

/** One remembered count, with the text it is of (compared in full on every hit). */
interface Remembered {
  readonly text: string;
  readonly count: number;
}

/**
 * Counts of texts seen lately, in two generations: lookups hit the young one
 * without touching it; a hit in the old one moves the count to the young one;
 * when the young one holds half the character budget it becomes the old one
 * and the previous old one is let go. A count is a pure function of the
 * text, so a hit is exact: the host audits the same content again (the same
 * document in answer after answer) without running the BPE again, and so does
 * a provider's guard rail.
 *
 * Keyed by {@link keyOf}, not by the text: a text freshly decoded from the
 * wire has no hash yet, and V8 hashes every character of it to look it up in
 * a map by the text (about 8 µs for a 4,000-character frame, more than the
 * rest of the audit). The key reads a few dozen characters; a hit is then
 * confirmed by comparing the whole text, which is a memory compare.
 */
let young = new Map<number, Remembered[]>();
let old = new Map<number, Remembered[]>();
let youngChars = 0;

/** The memo's key of `text`: its length and {@link KEY_SAMPLES} characters spread over it. */
function keyOf(text: string): number {
  const length = text.length;
  const step = length / KEY_SAMPLES;
  let hash = length;
  for (let i = 0; i < KEY_SAMPLES; i += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(Math.floor(i * step)), 0x01000193);
  }
  hash = Math.imul(hash ^ text.charCodeAt(length - 1), 0x01000193);
  return hash & 0x3fffffff;
}

/** The remembered count of `text` under `key` in `memo`, if any. */
function recall(memo: Map<number, Remembered[]>, key: number, text: string): number | undefined {
  const bucket = memo.get(key);
  if (bucket === undefined) return undefined;
  for (const entry of bucket) if (entry.text === text) return entry.count;
  return undefined;
}

function remember(key: number, text: string, count: number): void {
  if (youngChars + text.length > MEMO_MAX_CHARS / 2) {
    old = young;
    young = new Map();
    youngChars = 0;
  }
  const bucket = young.get(key);
  if (bucket === undefined) young.set(key, [{ text, count }]);
  else {
    if (bucket.length >= MEMO_BUCKET_SIZE) bucket.shift();
    bucket.push({ text, count });
  }
  youngChars += text.length;
}

/**
 * Exact o200k_base token count of `text`, pure JS, no downloads. Special-token
 * spellings such as `<|endoftext|>` count as ordinary text: provider content
 * never becomes a control token. Counts of texts of
 * {@link MEMO_MIN_CHARS}..{@link MEMO_MAX_KEY_CHARS} characters are memoized
 * (at most {@link MEMO_MAX_CHARS} characters of them, the least recently seen
 * let go first).
 */
export function countTokens(text: string): number {
  const length = text.length;
  if (length < MEMO_MIN_CHARS || length > MEMO_MAX_KEY_CHARS) return countO200k(text, AS_TEXT);
  const key = keyOf(text);
  const known = recall(young, key, text);
  if (known !== undefined) return known;
  const counted = recall(old, key, text) ?? countO200k(text, AS_TEXT);
  remember(key, text, counted);
  return counted;
}

/**
 * The token count of `text` when it is at most `limit`, else `false`; the BPE
 * stops as soon as the limit is passed (bounded work on a long text). Counts
 * as {@link countTokens} does: special-token spellings are ordinary text.
 */
export function tokensWithin(text: string, limit: number): number | false {
  return isWithinTokenLimit(text, limit, AS_TEXT);
}

/**
 * The most tokens `text` can count, without running the BPE: every token
 * stands for at least one UTF-8 byte, so the byte length bounds the count.
 * Exact enough to settle T1 for a frame whose declared cost already allows
 * that many tokens.
 */
export function tokenCeiling(text: string): number {
  // A UTF-16 unit is at most 3 UTF-8 bytes; the exact byte length only when that is not enough.
  const ceiling = text.length * 3;
  return ceiling <= 64 ? ceiling : utf8ByteLength(text);
}
