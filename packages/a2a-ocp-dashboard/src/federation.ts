/**
 * The Federation view (issue 44): each peer organisation a federated hub
 * links with (its hub id, link up or down, the agents it vouched for, how
 * many messages crossed each way and how many were refused, by code) and a
 * bounded list of what crossed and what was refused. Fed by the hub's
 * federation (`federation.observe`, `federation.links()` from
 * `@ocp/a2a-ocp-hub/federation`), whose events and interface are defined
 * once in `@ocp/a2a-ocp-messaging/observe`, as the hub's are (events.ts). A
 * crossing's content passes through {@link nodeView}: the dashboard's one
 * rule of what content it shows.
 */
import type {
  FederationCrossingEvent,
  FederationEvent,
  ObservableFederation,
} from "@ocp/a2a-ocp-messaging/observe";
import { record } from "./read.js";
import { nodeView, type RedactionPolicy } from "./redact.js";
import type { StateLimits } from "./state.js";
import type { NodeView } from "./views.js";

/** What the federation tells its observers (`FederationEvent` of the hub). */
export type DashboardFederationEvent = FederationEvent;

/** What the dashboard needs of a federation: the hub's `Federation` is one. */
export type { ObservableFederation } from "@ocp/a2a-ocp-messaging/observe";

/** A peer organisation as the Federation view shows it. */
export interface PeerView {
  hubId: string;
  open: boolean;
  /** Agents this peer's hub vouched for. */
  agents: number;
  /** Messages of this hub's agents committed for the peer (forwarded over the link). */
  forwarded: number;
  /** Messages from the peer's agents this hub accepted. */
  received: number;
  /** Refusals either way (what may not leave, what the peer sent or refused), by code. */
  refused: number;
  refusedByCode: Record<string, number>;
}

/** One message (or hub link) that crossed the boundary or was refused at it. */
export interface CrossingView {
  at: number;
  peer: string;
  direction: "out" | "in";
  outcome: "crossed" | "refused";
  id?: string | undefined;
  from: string;
  to: string[];
  type?: string | undefined;
  code?: string | undefined;
  reason?: string | undefined;
  /** Its knowledge nodes, content redacted as everywhere in the dashboard. */
  nodes: NodeView[];
}

/**
 * Hub links refused before they authenticated (`federation_unknown_peer`:
 * a hub id or key the federate file does not list). Counted here, never
 * listed as crossings or under a peer: whoever sends them chose the id they
 * claim, and a flood of them must not push real rows out of the list.
 */
export interface StrangersView {
  refused: number;
  refusedByCode: Record<string, number>;
  /** The hub id the latest one claimed (cut to 200 characters), and when. */
  lastClaimed?: string | undefined;
  lastAt?: number | undefined;
}

export interface FederationView {
  peers: PeerView[];
  crossings: CrossingView[];
  strangers: StrangersView;
}

/** Text fields are cut at this many characters. */
const TEXT = 200;
/** At most this many nodes and recipients are shown of one crossing. */
const NODES_PER_CROSSING = 20;
const RECIPIENTS_PER_CROSSING = 10;
const cut = (value: unknown): string | undefined =>
  typeof value === "string" ? value.slice(0, TEXT) : undefined;
const obj = record;

/** The knowledge nodes a payload carries (stream, update, shared fix, collective findings). */
function nodesOf(payload: unknown, policy: RedactionPolicy): NodeView[] {
  const p = obj(payload);
  const chunks = Array.isArray(p["items"]) ? p["items"].map(obj) : [p];
  const raw: unknown[] = [];
  for (const chunk of chunks) {
    if (Array.isArray(chunk["nodes"])) raw.push(...chunk["nodes"]);
    if (Array.isArray(chunk["findings"])) raw.push(...chunk["findings"].map((f) => obj(f)["node"]));
    if (chunk["node"] !== undefined) raw.push(chunk["node"]);
  }
  return raw.slice(0, NODES_PER_CROSSING).flatMap((value) => nodeView(value, policy) ?? []);
}

/** The federation's model: queued on the hub's path, applied on the dashboard's flush. */
export class FederationBook {
  readonly #federation: ObservableFederation;
  readonly #policy: RedactionPolicy;
  readonly #limits: Pick<StateLimits, "crossings" | "queue">;
  readonly #peers = new Map<string, PeerView>();
  readonly #crossings: CrossingView[] = [];
  readonly #strangers: StrangersView = { refused: 0, refusedByCode: {} };
  #queue: DashboardFederationEvent[] = [];
  #fresh: CrossingView[] = [];
  #changed = true;
  dropped = 0;

  constructor(
    federation: ObservableFederation,
    policy: RedactionPolicy,
    limits: Pick<StateLimits, "crossings" | "queue">,
  ) {
    this.#federation = federation;
    this.#policy = policy;
    this.#limits = limits;
    this.refresh();
  }

  /** Queues one federation event (cheap: called on the hub's path). */
  push(event: DashboardFederationEvent): void {
    if (this.#queue.length >= this.#limits.queue) this.dropped += 1;
    else this.#queue.push(event);
  }

  /** Re-reads each configured peer's link state and vouched agents. */
  refresh(): void {
    for (const link of this.#federation.links()) {
      const peer = this.#peers.get(link.hubId) ?? {
        hubId: link.hubId,
        open: false,
        agents: 0,
        forwarded: 0,
        received: 0,
        refused: 0,
        refusedByCode: {},
      };
      if (peer.open !== link.open || peer.agents !== link.agents) this.#changed = true;
      peer.open = link.open;
      peer.agents = link.agents;
      this.#peers.set(link.hubId, peer);
    }
  }

  /** Applies the queue; the peers and the new crossings when anything changed. */
  flush(): FederationView | undefined {
    const queue = this.#queue;
    this.#queue = [];
    let links = false;
    for (const event of queue) {
      if (event.kind === "link") links = true;
      else this.#crossing(event);
    }
    if (links) this.refresh();
    if (!this.#changed && this.#fresh.length === 0) return undefined;
    const delta = {
      peers: this.#peerViews(),
      crossings: this.#fresh,
      strangers: this.#strangerView(),
    };
    this.#fresh = [];
    this.#changed = false;
    return delta;
  }

  view(): FederationView {
    return {
      peers: this.#peerViews(),
      crossings: [...this.#crossings],
      strangers: this.#strangerView(),
    };
  }

  #strangerView(): StrangersView {
    return { ...this.#strangers, refusedByCode: { ...this.#strangers.refusedByCode } };
  }

  /** Whether `event` is a refused link attempt by a hub that did not authenticate (see {@link StrangersView}). */
  #stranger(event: FederationCrossingEvent): boolean {
    if (event.outcome !== "refused") return false;
    if (event.code !== "federation_unknown_peer" && this.#peers.has(event.peer)) return false;
    const code = cut(event.code) ?? "unknown";
    this.#strangers.refused += 1;
    this.#strangers.refusedByCode[code] = (this.#strangers.refusedByCode[code] ?? 0) + 1;
    this.#strangers.lastClaimed = cut(event.peer);
    this.#strangers.lastAt = event.at;
    this.#changed = true;
    return true;
  }

  #peerViews(): PeerView[] {
    return [...this.#peers.values()].map((p) => ({ ...p, refusedByCode: { ...p.refusedByCode } }));
  }

  #crossing(event: FederationCrossingEvent): void {
    if (this.#stranger(event)) return;
    const code = cut(event.code);
    const view: CrossingView = {
      at: event.at,
      peer: cut(event.peer) ?? "",
      direction: event.direction,
      outcome: event.outcome,
      id: cut(event.id),
      from: cut(event.from) ?? "",
      to: event.to.slice(0, RECIPIENTS_PER_CROSSING).flatMap((id) => cut(id) ?? []),
      type: cut(event.type),
      code,
      reason: cut(event.reason),
      nodes: event.payload === undefined ? [] : nodesOf(event.payload, this.#policy),
    };
    this.#crossings.push(view);
    if (this.#crossings.length > this.#limits.crossings) this.#crossings.shift();
    this.#fresh.push(view);
    if (this.#fresh.length > this.#limits.crossings) this.#fresh.shift();
    const peer = this.#peers.get(event.peer);
    if (peer === undefined) return;
    this.#changed = true;
    if (event.outcome === "refused") {
      peer.refused += 1;
      const key = code ?? "unknown";
      peer.refusedByCode[key] = (peer.refusedByCode[key] ?? 0) + 1;
    } else if (event.direction === "out") peer.forwarded += 1;
    else peer.received += 1;
  }
}
