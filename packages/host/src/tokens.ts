/** The host counts with the one shared token counter (`@ocp/types/tokens`), as the suite and the provider kit do. */
export { countTokens, TOKENIZER, tokensWithin } from "@ocp/types/tokens";
