/**
 * The hub events the dashboard reads: the shape of `OCPHub.observe()` from
 * `@ocp/a2a-ocp-hub`, declared here structurally so that this package needs
 * nothing from the hub at run time (the hub loads this package, not the
 * other way round).
 */

export type DashboardHubEvent =
  | { kind: "agent.registered"; at: number; agentId: string }
  | { kind: "agent.left"; at: number; agentId: string }
  | {
      kind: "message.accepted";
      at: number;
      id: string;
      type: string;
      from: string;
      verified: boolean;
      payload: unknown;
      recipients?: number | undefined;
      excluded: number;
    }
  | {
      kind: "message.refused";
      at: number;
      from: string;
      code: string;
      message: string;
      id?: string | undefined;
    };

/** The counters the dashboard samples once a second (`OCPHub.stats()`). */
export interface DashboardHubStats {
  connected: number;
  known: number;
  accepted: number;
  rejected: number;
  delivered: number;
  committed: number;
  slowConsumerCloses: number;
  peakOutboundBytes: number;
  /** Whether the hub's store can be reached (absent: a hub that does not say; read as reachable). */
  storeConnected?: boolean;
}

/** What the dashboard needs of a hub: an `OCPHub` is one. */
export interface ObservableHub {
  observe(listener: (event: DashboardHubEvent) => void): () => void;
  stats(): DashboardHubStats;
  connectedAgents(): string[];
}

/** A message the hub accepted. */
export type AcceptedEvent = Extract<DashboardHubEvent, { kind: "message.accepted" }>;
