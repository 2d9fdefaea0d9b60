import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

/** The BPE encoding token costs are counted in. */
export const TOKEN_ENCODING = "o200k_base";

/** The honest token cost of a piece of text: its o200k_base BPE token count. */
export function countTokens(text: string): number {
  return countO200k(text);
}
