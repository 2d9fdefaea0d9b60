import { blank, keepsEveryRule } from "./audit.js";
import { wireError } from "./errors.js";
import { isPlainResult } from "./fast/canonical.js";
import type { ContextFrame } from "./frame.js";
import { packFrames } from "./pack.js";
import { type ContextQuery, type ContextQueryResult, ContextQueryResultSchema } from "./query.js";
import { understatesCost } from "./rules.js";
import { countTokens } from "./tokens.js";

export interface GuardOptions {
  /**
   * `fix` (default): repair what can be repaired (score clamped, empty labels
   * filled, understated costs recounted), leave out frames of kinds not asked
   * for or not declared, pack to the budget, and log one warning per fix.
   * `refuse`: answer nothing that needed a fix; the query fails with an
   * `internal` error naming every problem.
   */
  readonly mode?: "fix" | "refuse";
  /** The kinds the provider declared (`capabilities.query.kinds`); a frame of another kind is left out. */
  readonly declaredKinds?: readonly string[];
  /** Where fix warnings go; default nowhere. */
  readonly warn?: (message: string) => void;
}

/**
 * The provider kit's guard rail: makes an outgoing answer keep every rule of
 * the rule table (F1-F3, B1, T1, K1, M1) before it goes on the wire, or
 * refuses it. Costs are counted with the same tokenizer the host audits with.
 */
export function guardResult(
  query: Pick<ContextQuery, "max_tokens" | "max_frames" | "kinds">,
  result: ContextQueryResult,
  options: GuardOptions = {},
): ContextQueryResult {
  return guardIn(options.mode ?? "fix", query, result, options);
}

/** {@link guardResult} with the mode apart from the options (no copy of them per answer). */
function guardIn(
  mode: "fix" | "refuse",
  query: Pick<ContextQuery, "max_tokens" | "max_frames" | "kinds">,
  result: ContextQueryResult,
  options: Omit<GuardOptions, "mode">,
): ContextQueryResult {
  if (keepsEveryRule(query, result, options.declaredKinds)) return result;
  const problems: string[] = [];
  const asked = new Set<string>(query.kinds);
  const declared = new Set<string>(options.declaredKinds ?? []);
  const frames: ContextFrame[] = [];
  result.frames.forEach((original, index) => {
    const frame = { ...original };
    const name = `frame ${index} ("${frame.id}")`;
    if (asked.size > 0 && !asked.has(frame.kind)) {
      problems.push(`K1: ${name} is a "${frame.kind}", not asked for: left out`);
      return;
    }
    if (declared.size > 0 && !declared.has(frame.kind)) {
      problems.push(`${name} is a "${frame.kind}", a kind the provider does not declare: left out`);
      return;
    }
    if (blank(frame.id)) {
      frame.id = `frame-${index + 1}`;
      problems.push(`${name}: empty id, set to "${frame.id}"`);
    }
    if (!Number.isFinite(frame.score) || frame.score < 0 || frame.score > 1) {
      const score = Number.isFinite(frame.score) ? Math.min(1, Math.max(0, frame.score)) : 0;
      problems.push(`F1: ${name}: score ${frame.score} set to ${score}`);
      frame.score = score;
    }
    if (blank(frame.title)) {
      frame.title = blank(frame.citation_label) ? frame.id : (frame.citation_label as string);
      problems.push(`F2: ${name}: empty title, set to "${frame.title}"`);
    }
    if (blank(frame.citation_label)) {
      frame.citation_label = frame.title;
      problems.push(`F3: ${name}: empty citation_label, set to "${frame.title}"`);
    }
    const counted = countTokens(frame.content);
    if (
      !Number.isSafeInteger(frame.token_cost) ||
      frame.token_cost < 0 ||
      understatesCost(frame.token_cost, counted)
    ) {
      problems.push(`T1: ${name}: token_cost ${frame.token_cost} set to ${counted}`);
      frame.token_cost = counted;
    }
    frames.push(frame);
  });
  const packed = packFrames(frames, query);
  if (packed.dropped > 0) {
    problems.push(
      `B1/M1: ${packed.dropped} frame(s) left out to fit max_tokens ${query.max_tokens}, max_frames ${query.max_frames}`,
    );
  }
  if (problems.length === 0) return result;
  if (mode === "refuse") {
    throw wireError("internal", `the provider's answer breaks the rules: ${problems.join("; ")}`, {
      details: { problems },
    });
  }
  for (const problem of problems) options.warn?.(`fixed an outgoing answer: ${problem}`);
  const removed = result.frames.length - packed.frames.length;
  return {
    frames: packed.frames,
    truncated: result.truncated || removed > 0,
    ...(removed > 0 || (result.dropped_estimate ?? null) !== null
      ? { dropped_estimate: (result.dropped_estimate ?? 0) + removed }
      : {}),
  };
}

/**
 * What a provider server sends for a provider's raw answer: with the guard
 * `off`, the answer as it is; otherwise, when it decodes as a result (the
 * plain form without a schema pass, see `isPlainResult`), the guarded
 * result. An answer that does not decode is returned as it is, for the
 * encoder to refuse. Shared by `serveStdio` and `createHttpProviderServer`.
 */
export function guardAnswer(
  query: ContextQuery,
  raw: unknown,
  guard: "fix" | "refuse" | "off",
  options: Omit<GuardOptions, "mode"> = {},
): unknown {
  if (guard === "off") return raw;
  const decoded = isPlainResult(raw)
    ? ({ success: true, data: raw } as const)
    : ContextQueryResultSchema.safeParse(raw);
  return decoded.success ? guardIn(guard, query, decoded.data, options) : raw;
}

export { type Budget, packFrames } from "./pack.js";
