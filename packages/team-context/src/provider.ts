import {
  ExtractiveSynthesizer,
  type MessageReceipt,
  type OCPAgent,
  type ReceivedResponse,
} from "@ocp/a2a-ocp-agent";
import { searchNodes } from "@ocp/a2a-ocp-agent/internal";
import { type KnowledgeNode, maySee } from "@ocp/a2a-ocp-messaging";
import { isLoopbackHost } from "@ocp/transport-http";
import {
  type Capabilities,
  type ContextFrame,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  type FrameKind,
  type ProviderInfo,
  type QueryOptions,
  wireError,
} from "@ocp/types";
import { teamContextError } from "./errors.js";
import { nodeFrame, teamAnswerFrame } from "./frames.js";
import { frameKindOf, SERVED_KINDS } from "./kinds.js";
import {
  DEADLINE_MARGIN_MS,
  DEFAULT_DEADLINE_MS,
  DEFAULT_TEAM_WAIT_MS,
  MAX_GRAPH_CANDIDATES,
  MAX_REMEMBERED_RECEIPTS,
  MIN_TEAM_BUDGET_TOKENS,
  MIN_TEAM_WAIT_MS,
  REPLY_RESERVE_MS,
} from "./limits.js";
import { bestWithinBudget } from "./select.js";

/** Options of a {@link TeamContextProvider}. */
export interface TeamContextOptions {
  /** The started agent whose graph (and team) is served. */
  readonly agent: OCPAgent;
  /** The hub's URL: a hub off this machine makes the provider declare `egress`. */
  readonly hubUrl: string;
  /** Host-facing id (default `team`). */
  readonly id?: string;
  /** Provider name at the handshake (default `ocp-team-context`). */
  readonly name?: string;
  readonly version?: string;
  /** Time from a query's arrival to its answer, ms (default `LIMITS.DEFAULT_DEADLINE_MS`); keep it under the host's timeout. */
  readonly deadlineMs?: number;
  /** Longest collective query wait, ms (default `LIMITS.DEFAULT_TEAM_WAIT_MS`); always cut to fit the deadline. */
  readonly teamWaitMs?: number;
  /** Ask the team when the graph cannot fill the budget (default true). */
  readonly askTeam?: boolean;
  readonly now?: () => number;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw teamContextError("bad_option", `${name} must be a positive whole number, not ${value}`);
  return value;
}

/** Whether a hub URL points off this machine (anything but a loopback host). */
export function isRemoteHub(url: string): boolean {
  try {
    return !isLoopbackHost(new URL(url).hostname);
  } catch {
    return true;
  }
}

/** Resolves with `promise`'s value, or `undefined` after `ms`, on abort, or on failure. */
function settleBy<T>(
  promise: Promise<T>,
  ms: number,
  signal?: AbortSignal,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(undefined), Math.max(0, ms));
    const onAbort = () => finish(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    function finish(value: T | undefined) {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    }
    promise.then(finish, () => finish(undefined));
  });
}

/** What the provider declares at the handshake: known before the agent has joined its team. */
export function teamProviderInfo(
  options: Pick<TeamContextOptions, "name" | "version" | "hubUrl">,
): ProviderInfo {
  return {
    name: options.name ?? "ocp-team-context",
    version: options.version ?? "0.0.0",
    // Reads: the goal goes to the team when it is asked. Egress: when the hub is off this machine.
    data_flow: { reads: true, writes: false, egress: isRemoteHub(options.hubUrl) },
  };
}

/** The provider's capabilities (the kinds it maps nodes to; ids on every answer). */
export const TEAM_CAPABILITIES: Capabilities = {
  query: { kinds: [...SERVED_KINDS], filters: [] },
  upsert: false,
  graph: false,
  subscribe: false,
  correlation: true,
};

/**
 * An Open Context provider over an a2a+ocp agent: the nodes of its graph the
 * agent may see (§8.5 `maySee`, its own identity as recipient), ranked for
 * the query's goal by the runtime's BM25 search, as cited frames with their
 * provenance. When those cannot fill the budget it asks the team (§5.2
 * collective query): collection ends `DEADLINE_MARGIN_MS` before the
 * deadline (`deadlineMs` after the query arrived) and, whatever the team or
 * the hub does, the provider answers `REPLY_RESERVE_MS` before it; answers become frames
 * citing the answering agents, plus one team answer frame marking consensus
 * and dissent. Token costs are `@ocp/host`'s o200k_base count of title and
 * content, the count the host audits with.
 */
export class TeamContextProvider implements ContextProvider {
  readonly id: string;
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  readonly #agent: OCPAgent;
  readonly #deadlineMs: number;
  readonly #teamWaitMs: number;
  readonly #askTeam: boolean;
  readonly #now: () => number;
  readonly #receipts = new Map<string, MessageReceipt>();
  readonly #off: () => void;
  readonly #synthesizer = new ExtractiveSynthesizer();
  #closed = false;

  constructor(options: TeamContextOptions) {
    this.#agent = options.agent;
    this.id = options.id ?? "team";
    this.#deadlineMs = positive("deadlineMs", options.deadlineMs, DEFAULT_DEADLINE_MS);
    this.#teamWaitMs = positive("teamWaitMs", options.teamWaitMs, DEFAULT_TEAM_WAIT_MS);
    this.#askTeam = options.askTeam ?? true;
    this.#now = options.now ?? Date.now;
    this.info = teamProviderInfo(options);
    this.capabilities = TEAM_CAPABILITIES;
    this.#off = this.#agent.on("knowledge", (nodes, _from, receipt) => {
      for (const node of nodes) this.#remember(node.id, receipt);
    });
  }

  /** The signed message a node last arrived in, when this provider saw it arrive. */
  receiptOf(nodeId: string): MessageReceipt | undefined {
    return this.#receipts.get(nodeId);
  }

  async query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
    if (this.#closed) throw wireError("shutting_down", "the team-context provider is closed");
    options.signal?.throwIfAborted();
    const deadline = this.#now() + this.#deadlineMs;
    const kinds = query.kinds.filter((kind) => SERVED_KINDS.includes(kind));
    if (query.kinds.length > 0 && kinds.length === 0) {
      throw wireError(
        "unsupported_kind",
        `this provider serves ${SERVED_KINDS.join(", ")} frames, not ${query.kinds.join(", ")}`,
      );
    }
    const wanted = (kind: FrameKind) => kinds.length === 0 || kinds.includes(kind);
    const me = this.#agent.id;
    const visible = (node: KnowledgeNode) => maySee(node, me, this.#agent.visibility);
    const text = searchText(query);
    const nodes = this.#agent.graph.liveNodes().filter((n) => visible(n) && wanted(frameKindOf(n)));
    const { findings } = searchNodes(nodes, text, {
      keywords: query.anchors,
      limit: MAX_GRAPH_CANDIDATES,
    });
    const candidates: ContextFrame[] = findings.map((f) => {
      const receipt = this.#receipts.get(f.node.id);
      return nodeFrame(f.node, f.relevance, receipt && { receipt, method: receipt.type });
    });
    let picked = bestWithinBudget(candidates, query);
    if (
      this.#askTeam &&
      text !== "" &&
      picked.frames.length < query.max_frames &&
      query.max_tokens - picked.tokens >= MIN_TEAM_BUDGET_TOKENS
    ) {
      const seen = new Set(candidates.map((c) => c.id));
      const ask = { text, goal: query.goal.trim() || text };
      for (const frame of await this.#team(ask, deadline, wanted, visible, options.signal)) {
        if (!seen.has(frame.id)) candidates.push(frame);
        seen.add(frame.id);
      }
      picked = bestWithinBudget(candidates, query);
    }
    const dropped = candidates.length - picked.frames.length;
    return dropped > 0
      ? { frames: picked.frames, truncated: true, dropped_estimate: dropped }
      : { frames: picked.frames, truncated: false };
  }

  /** Stops listening to the agent; the agent itself belongs to the caller. Idempotent. */
  async shutdown(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#off();
  }

  /** §5.2 ask the team, never past `deadline - REPLY_RESERVE_MS`; frames of what came back. */
  async #team(
    { text, goal }: { readonly text: string; readonly goal: string },
    deadline: number,
    wanted: (kind: FrameKind) => boolean,
    visible: (node: KnowledgeNode) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<ContextFrame[]> {
    const wait = Math.min(this.#teamWaitMs, deadline - DEADLINE_MARGIN_MS - this.#now());
    if (wait < MIN_TEAM_WAIT_MS) return [];
    // The collective query stops collecting after `wait`; the race below
    // stops us REPLY_RESERVE_MS before the deadline even if the hub is slow.
    const result = await settleBy(
      this.#agent.collectiveQuery(text, { timeout: wait }),
      deadline - REPLY_RESERVE_MS - this.#now(),
      signal,
    );
    if (result === undefined) return [];
    // §8.5 again on our side: a finding we may not see is dropped, never framed nor synthesised.
    const responses: ReceivedResponse[] = result.responses.map((r) => ({
      ...r,
      payload: { ...r.payload, findings: r.payload.findings.filter((f) => visible(f.node)) },
    }));
    const frames: ContextFrame[] = [];
    for (const response of responses) {
      for (const finding of response.payload.findings) {
        if (!wanted(frameKindOf(finding.node))) continue;
        const arrival = response.receipt && {
          receipt: response.receipt,
          method: response.receipt.type,
        };
        frames.push(nodeFrame(finding.node, finding.relevance, arrival));
      }
    }
    if (responses.length > 0 && wanted("fact")) {
      const synthesis = await this.#synthesizer.synthesize(text, result.queryId, responses);
      frames.push(
        teamAnswerFrame({
          querier: this.#agent.id,
          queryId: result.queryId,
          query: goal,
          answer: synthesis.answer,
          confidence: synthesis.confidence,
          consensus: synthesis.consensus,
          dissent: synthesis.dissent,
          responses,
        }),
      );
    }
    return frames;
  }

  #remember(nodeId: string, receipt: MessageReceipt): void {
    this.#receipts.delete(nodeId);
    if (this.#receipts.size >= MAX_REMEMBERED_RECEIPTS) {
      const oldest = this.#receipts.keys().next().value;
      if (oldest !== undefined) this.#receipts.delete(oldest);
    }
    this.#receipts.set(nodeId, receipt);
  }
}

/**
 * What the graph and the team are searched for: the goal, and the query's
 * `query_text` when it adds to it. Hosts often send the goal again as
 * `query_text`; it is searched (and asked of the team) once, not twice.
 */
export function searchText(query: Pick<ContextQuery, "goal" | "query_text">): string {
  const goal = query.goal.trim();
  const extra = (query.query_text ?? "").trim();
  const words = (text: string) => text.toLowerCase().replace(/\s+/g, " ");
  if (extra === "" || words(goal).includes(words(extra))) return goal;
  if (goal === "" || words(extra).includes(words(goal))) return extra;
  return `${goal} ${extra}`;
}
