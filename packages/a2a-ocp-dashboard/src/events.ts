/**
 * The hub events the dashboard reads: those of `OCPHub.observe()` from
 * `@ocp/a2a-ocp-hub`, imported as types only (the hub is an optional peer:
 * the hub loads this package, never the other way round, and nothing of the
 * hub is loaded at run time). Each shape is the hub's own, narrowed to the
 * members the dashboard reads, so a member the hub renames or retypes fails
 * the dashboard's build instead of drifting.
 */
import type {
  AgentLeftEvent,
  AgentRegisteredEvent,
  HubStats,
  MessageAcceptedEvent,
  MessageRefusedEvent,
} from "@ocp/a2a-ocp-hub";

/** A message the hub accepted, as the dashboard reads it. */
export type AcceptedEvent = Pick<
  MessageAcceptedEvent,
  "kind" | "at" | "id" | "type" | "from" | "verified" | "payload" | "recipients" | "excluded"
>;

/** The events the dashboard reads; every `HubEvent` of the hub is one. */
export type DashboardHubEvent =
  | AgentRegisteredEvent
  | AgentLeftEvent
  | AcceptedEvent
  | MessageRefusedEvent;

/** The counters the dashboard samples once a second (`OCPHub.stats()`). */
export type DashboardHubStats = Pick<
  HubStats,
  | "connected"
  | "known"
  | "accepted"
  | "rejected"
  | "delivered"
  | "committed"
  | "slowConsumerCloses"
  | "peakOutboundBytes"
> &
  /** Whether the hub's store can be reached (absent: a hub that does not say; read as reachable). */
  Partial<Pick<HubStats, "storeConnected">>;

/** What the dashboard needs of a hub: an `OCPHub` is one. */
export interface ObservableHub {
  observe(listener: (event: DashboardHubEvent) => void): () => void;
  stats(): DashboardHubStats;
  connectedAgents(): string[];
}
