/**
 * `@ocp/types/tokens`: the one token counter of the Open Context side. The
 * host audits declared costs with it (T1), the suite's cost-truth check counts
 * with it, and providers built with `@ocp/types/kit` declare costs with it, so
 * the three agree to the token. Needs the `gpt-tokenizer` peer.
 */
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

/** The BPE every declared cost is audited in (the GPT-4o family's). */
export const TOKENIZER = "o200k_base";

const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Exact o200k_base token count of `text`, pure JS, no downloads. Special-token
 * spellings such as `<|endoftext|>` count as ordinary text: provider content
 * never becomes a control token.
 */
export function countTokens(text: string): number {
  return countO200k(text, AS_TEXT);
}
