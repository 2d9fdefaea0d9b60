/**
 * One provider of both families (`ocp/1` and `contextgraph/1`), in process,
 * for the tests that serve it over HTTP: it answers every query with one
 * frame whose own `ocp/1` cost ({@link DUAL_OCP_COST}) is far from what B3
 * says for {@link DUAL_TEXT}, so each family's answer is told apart.
 */
import type { ContextFrame } from "@ocp/types";
import type { DualProvider } from "@ocp/types/kit";

/** The content of the one frame. */
export const DUAL_TEXT = "Retries double backoff_ms after each attempt, up to max_attempts.";
/** The frame's own ocp/1 cost: far above what B3 says for {@link DUAL_TEXT}. */
export const DUAL_OCP_COST = 40;

/** The one frame the provider answers with. */
export function dualFrame(): ContextFrame {
  return {
    id: "retry",
    kind: "doc",
    title: "Retry",
    content: DUAL_TEXT,
    score: 0.8,
    token_cost: DUAL_OCP_COST,
    citation_label: "retry.md L1",
    provenance: [],
    relations: [],
  };
}

/** The dual provider ("dual", local-only, correlation declared), with `overrides` laid over it. */
export function dualProvider(overrides: Partial<DualProvider> = {}): DualProvider {
  return {
    id: "dual",
    info: {
      name: "dual",
      version: "1.0.0",
      data_flow: { reads: true, writes: false, egress: false },
    },
    capabilities: {
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
      correlation: true,
    },
    cgp: { egressScopes: ["local-only"] },
    async query() {
      return { frames: [dualFrame()], truncated: false };
    },
    async shutdown() {},
    ...overrides,
  };
}
