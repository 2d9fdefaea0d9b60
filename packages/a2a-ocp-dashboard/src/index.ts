/**
 * `@ocp/a2a-ocp-dashboard`: a live, read-only dashboard of an a2a+ocp hub in
 * the browser. `startDashboard(hub)` observes the hub (`hub.observe`) and
 * serves the page on loopback; `ocp-hub --dashboard` does the same from the
 * command line. See the README, "Security".
 */

export { type AccessDecision, decideAccess, isLoopback } from "./access.js";
export { decide, ProposalBook } from "./consensus.js";
export type {
  AcceptedEvent,
  DashboardHubEvent,
  DashboardHubStats,
  ObservableHub,
} from "./events.js";
export type {
  CrossingView,
  DashboardFederationEvent,
  FederationView,
  ObservableFederation,
  PeerView,
  StrangersView,
} from "./federation.js";
export { QueryBook } from "./queries.js";
export { contradicts, nodeView, type RedactionPolicy } from "./redact.js";
export { type Dashboard, type DashboardOptions, startDashboard } from "./server.js";
export {
  AWAY_AFTER_MS,
  DashboardState,
  DEFAULT_LIMITS,
  refusalReason,
  type StateLimits,
  SYNTHESIS_GRACE_MS,
} from "./state.js";
export { isBlocked, type Summary, summarize } from "./summary.js";
export type * from "./views.js";
