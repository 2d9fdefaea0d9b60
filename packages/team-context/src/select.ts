import type { ContextFrame, ContextQuery } from "@ocp/types";

/**
 * The best frames within a query's budget: highest score first (ties by
 * id, so the answer is deterministic), each taken when it fits what is left
 * of `max_tokens` (B1) and while fewer than `max_frames` are taken.
 */
export function bestWithinBudget(
  candidates: readonly ContextFrame[],
  query: Pick<ContextQuery, "max_tokens" | "max_frames">,
): { frames: ContextFrame[]; tokens: number } {
  const ranked = [...candidates].sort(
    (a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const frames: ContextFrame[] = [];
  let tokens = 0;
  for (const frame of ranked) {
    if (frames.length >= query.max_frames) break;
    if (tokens + frame.token_cost > query.max_tokens) continue;
    tokens += frame.token_cost;
    frames.push(frame);
  }
  return { frames, tokens };
}
