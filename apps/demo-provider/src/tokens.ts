/**
 * The demo provider counts tokens with the one shared counter
 * (`@ocp/types/tokens`), as the host that audits its declared costs does: the
 * same encoding and the same policy (special-token spellings such as
 * `<|endoftext|>` in a file are ordinary text), so the two agree to the token
 * and no file's content can crash the indexer.
 */
export { countTokens, TOKENIZER as TOKEN_ENCODING } from "@ocp/types/tokens";
