/**
 * Hub events of the team demo's story for the tests without a browser: a
 * clock the tests move, accepted messages, knowledge nodes, and a
 * {@link DashboardState} with helpers for Alice's collective query.
 */
import { type DashboardHubEvent, DashboardState } from "../src/index.js";

/** The time every event and the state read: tests move it. */
export const clock = { now: Date.parse("2026-01-01T00:00:00Z") };
let next = 0;
export const accepted = (
  from: string,
  type: string,
  payload: unknown,
  verified = true,
): DashboardHubEvent => ({
  kind: "message.accepted",
  at: clock.now,
  id: `m${++next}`,
  type,
  from,
  verified,
  payload,
  excluded: 0,
  durable: true,
});

export const node = (
  id: string,
  title: string,
  author: string,
  extra: Record<string, unknown> = {},
) => ({
  id,
  type: "fact",
  title,
  data: { secret: `data ${id}` },
  confidence: 0.9,
  timestamp: "2026-01-01T00:00:00Z",
  createdBy: author,
  tags: [],
  ...extra,
});

export const JWT = "Authentication uses short-lived JWT access tokens";

export function teamState(showAllVisibilities: boolean) {
  const state = new DashboardState(
    { showAllVisibilities, defaultVisibility: "workspace" },
    {},
    () => clock.now,
  );
  const push = (from: string, type: string, payload: unknown, verified = true) =>
    state.push(accepted(from, type, payload, verified));
  const ask = () =>
    push("a2a://alice", "ocp.collective.query", {
      queryId: "q1",
      query: "What's our approach to authentication?",
      timeout: 10_000,
      minResponses: 3,
    });
  const respond = (from: string, nodes: unknown[]) =>
    push(from, "ocp.collective.response", {
      queryId: "q1",
      findings: nodes.map((n) => ({ node: n, relevance: 0.8 })),
      confidence: 0.8,
      processingTime: 3,
    });
  const synthesize = (from = "a2a://alice") =>
    push(from, "ocp.collective.synthesis", {
      queryId: "q1",
      answer: `${JWT}: fifteen minutes`,
      keyPoints: [JWT],
      confidence: 0.8,
      consensus: [`${JWT} (a2a://bob, a2a://carol)`],
      dissent: ["Admin sessions (a2a://dave) contradicts JWT (a2a://bob)"],
      sources: ["a2a://bob", "a2a://carol", "a2a://dave"],
      timestamp: "2026-01-01T00:00:01Z",
    });
  return { state, push, ask, respond, synthesize };
}
