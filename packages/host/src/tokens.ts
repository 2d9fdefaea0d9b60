import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

/** The tokenizer the host measures text with. */
export const TOKENIZER = "o200k_base";

const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Exact token count of `text` under o200k_base (the GPT-4o family BPE), pure
 * JS, no downloads. Special-token spellings such as `<|endoftext|>` count as
 * ordinary text: provider content never becomes a control token.
 */
export function countTokens(text: string): number {
  return countO200k(text, AS_TEXT);
}
