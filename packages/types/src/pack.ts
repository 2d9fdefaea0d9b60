import type { ContextFrame } from "./frame.js";

/** What a provider's answer may hold past the rules: as many frames as fit, in its order. */
export interface Budget {
  readonly max_tokens: number;
  readonly max_frames: number;
}

/**
 * Packs `frames` (in the given order, best first) into a budget: each frame
 * that still fits both `max_tokens` and `max_frames` is kept, the others are
 * left out. `truncated` says whether any was left out.
 */
export function packFrames<F extends Pick<ContextFrame, "token_cost">>(
  frames: readonly F[],
  budget: Budget,
): { frames: F[]; truncated: boolean; dropped: number } {
  const kept: F[] = [];
  let used = 0;
  for (const frame of frames) {
    if (kept.length >= budget.max_frames) break;
    if (used + frame.token_cost > budget.max_tokens) continue;
    kept.push(frame);
    used += frame.token_cost;
  }
  return {
    frames: kept,
    truncated: kept.length < frames.length,
    dropped: frames.length - kept.length,
  };
}
