import { z } from "zod";
import { ContextFrameSchema, FrameKindSchema, StrictContextFrameSchema } from "./frame.js";
import { NonEmptyStringSchema, U32Schema } from "./primitives.js";
import { omittedWhenEmpty } from "./wire-lists.js";

/**
 * A retrieval request. `max_tokens` is a hard contract, not a hint. Empty
 * `kinds` means "any kind". Empty `kinds` and `anchors` are left off the wire.
 */
export const ContextQuerySchema = z.object({
  goal: z.string(),
  query_text: z.string().nullish(),
  embedding: z.array(z.number()).nullish(),
  kinds: omittedWhenEmpty(z.array(FrameKindSchema).default([])),
  anchors: omittedWhenEmpty(z.array(z.string()).default([])),
  max_frames: U32Schema,
  max_tokens: U32Schema,
  as_of: z.string().nullish(),
});
export type ContextQuery = z.infer<typeof ContextQuerySchema>;
/** A query as a caller may write it: defaulted fields may be left out. */
export type ContextQueryInit = z.input<typeof ContextQuerySchema>;

export const StrictContextQuerySchema = ContextQuerySchema.extend({
  goal: NonEmptyStringSchema,
}).meta({ id: "ContextQuery", description: "A retrieval request with a hard token budget." });

/** The answer to a query. `truncated` is true if candidates did not fit. */
export const ContextQueryResultSchema = z.object({
  frames: z.array(ContextFrameSchema),
  truncated: z.boolean(),
  dropped_estimate: U32Schema.nullish(),
});
export type ContextQueryResult = z.infer<typeof ContextQueryResultSchema>;
export type ContextQueryResultInit = z.input<typeof ContextQueryResultSchema>;

export const StrictContextQueryResultSchema = ContextQueryResultSchema.extend({
  frames: z.array(StrictContextFrameSchema),
}).meta({ id: "ContextQueryResult" });

/** Anything with costed frames: a result, or the frames a host kept of one. */
export type CostCarrier = { frames: ReadonlyArray<{ token_cost: number }> };

/** Sum of `token_cost` over the returned frames. */
export function totalTokenCost(result: CostCarrier): number {
  let sum = 0;
  for (const frame of result.frames) sum += frame.token_cost;
  return sum;
}

/** B1: whether the declared costs stay within `maxTokens`. */
export function respectsBudget(result: CostCarrier, maxTokens: number): boolean {
  return totalTokenCost(result) <= maxTokens;
}

/** Whether the result returns at most `maxFrames` frames. */
export function respectsFrameLimit(result: { frames: ReadonlyArray<unknown> }, maxFrames: number) {
  return result.frames.length <= maxFrames;
}
