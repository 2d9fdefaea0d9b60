import type { ContextQuery } from "@ocp/types";
import { type LegHost, startLeg } from "./dispatch.js";
import {
  assembleFanOut,
  type FanOutResult,
  type LegOutcome,
  latencyOf,
  type SkippedProvider,
  servesKinds,
} from "./fanout.js";
import type { Entry, QueryCallOptions } from "./registry.js";

/**
 * Starts one leg per provider that serves the query's kinds, concurrently,
 * and folds their outcomes, in registration order, into one
 * {@link FanOutResult} once the slowest has settled. A single leg is
 * assembled in the step that settles it (no `Promise.all` and no step after
 * it), and the fan-out's `elapsedMs` is that leg's latency; more are gathered
 * with `Promise.all` and timed from before the first starts. Rejects only when a leg does
 * (a contextgraph/1 query that cannot be built), as `Promise.all` does.
 */
export function fanOut(
  host: LegHost,
  entries: ReadonlyMap<string, Entry>,
  query: ContextQuery,
  options: QueryCallOptions,
): Promise<FanOutResult> {
  const skipped: SkippedProvider[] = [];
  let legs: Promise<LegOutcome>[] | undefined;
  let only: [string, Entry] | undefined;
  let started = 0;
  for (const pair of entries) {
    const entry = pair[1];
    if (!servesKinds(entry.capabilities, query.kinds)) {
      skipped.push({
        providerId: pair[0],
        reason: "kinds_not_served",
        declaredKinds: entry.capabilities.query.kinds,
      });
      continue;
    }
    if (only === undefined && legs === undefined) {
      only = pair;
      continue;
    }
    if (only !== undefined) {
      started = performance.now();
      legs = [startLeg(host, only[0], only[1], query, options)];
      only = undefined;
    }
    (legs as Promise<LegOutcome>[]).push(startLeg(host, pair[0], entry, query, options));
  }
  if (only !== undefined) {
    // One leg: the fan-out took what its leg took (measured by the leg; the clock is read twice, not four times).
    return startLeg(host, only[0], only[1], query, options, (outcome) =>
      assembleFanOut(query, [outcome], skipped, Math.round(latencyOf(outcome))),
    );
  }
  if (legs === undefined) {
    // No provider serves the kinds asked for: nothing to wait for.
    return Promise.resolve(assembleFanOut(query, [], skipped, 0));
  }
  return Promise.all(legs).then((outcomes) =>
    assembleFanOut(query, outcomes, skipped, Math.round(performance.now() - started)),
  );
}
