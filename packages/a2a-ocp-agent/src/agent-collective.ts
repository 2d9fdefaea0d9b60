import type {
  CollectiveQueryPayload,
  CollectiveSynthesisPayload,
  MessageOf,
} from "@ocp/a2a-ocp-messaging";
import { BROADCAST } from "@ocp/a2a-ocp-messaging";
import type { AgentContext } from "./context.js";
import { agentError } from "./errors.js";
import { MAX_COLLECTIVE_TIMEOUT_MS, MAX_FINDINGS_PER_RESPONSE } from "./limits.js";
import { receiptOf } from "./receipt.js";
import { replyAddress } from "./reply.js";
import { searchNodes } from "./search.js";
import type { ReceivedResponse, Synthesizer } from "./synthesis.js";

/** What `collectiveQuery` returns. */
export interface CollectiveResult {
  readonly queryId: string;
  readonly responses: ReceivedResponse[];
  readonly synthesis: CollectiveSynthesisPayload;
  /** Why collection stopped. */
  readonly stoppedBy: "minResponses" | "maxResponses" | "timeout";
}

interface Pending {
  readonly payload: CollectiveQueryPayload;
  readonly responses: ReceivedResponse[];
  readonly timer: ReturnType<typeof setTimeout>;
  done(stoppedBy: CollectiveResult["stoppedBy"]): void;
}

/** Options of a collective query (§5.2.1 fields). */
export interface CollectiveQueryOptions {
  /** Longest wait, ms (default `DEFAULT_COLLECTIVE_TIMEOUT_MS`). */
  timeout?: number;
  minResponses?: number;
  maxResponses?: number;
  structuredQuery?: {
    intent: string;
    domains: string[];
    keywords: string[];
    filters?: Record<string, unknown>;
  };
}

/** Default wait for a collective query, ms. */
export const DEFAULT_COLLECTIVE_TIMEOUT_MS = 5_000;

/**
 * Collective queries (§5.2). The querier broadcasts `ocp.collective.query`
 * and collects one `ocp.collective.response` per agent until the first of:
 * `minResponses` responses (when set), `maxResponses` responses (when set),
 * or `timeout` ms. It then synthesises them (the {@link Synthesizer}) and
 * sends the `ocp.collective.synthesis` to the agents that responded.
 * Responders rank their live nodes with BM25 ({@link searchNodes}) and answer
 * with their best {@link MAX_FINDINGS_PER_RESPONSE} findings; an agent with
 * no match answers with no findings (it still counts as a response).
 */
export class CollectiveService {
  readonly #pending = new Map<string, Pending>();

  constructor(
    private readonly ctx: AgentContext,
    private readonly synthesizer: Synthesizer,
    private readonly answer: boolean,
    private readonly onSynthesis: (s: CollectiveSynthesisPayload, from: string) => void,
  ) {}

  async query(query: string, options: CollectiveQueryOptions): Promise<CollectiveResult> {
    const timeout = options.timeout ?? DEFAULT_COLLECTIVE_TIMEOUT_MS;
    if (timeout > MAX_COLLECTIVE_TIMEOUT_MS)
      throw agentError("limit_exceeded", `timeout above ${MAX_COLLECTIVE_TIMEOUT_MS} ms`);
    const queryId = `query-${globalThis.crypto.randomUUID()}`;
    const payload = { ...options, queryId, query, timeout } as CollectiveQueryPayload;
    const stopped = new Promise<CollectiveResult["stoppedBy"]>((resolve) => {
      const timer = setTimeout(() => finish("timeout"), timeout);
      const finish = (why: CollectiveResult["stoppedBy"]) => {
        clearTimeout(timer);
        if (this.#pending.get(queryId) === entry) this.#pending.delete(queryId);
        resolve(why);
      };
      const entry: Pending = { payload, responses: [], timer, done: finish };
      this.#pending.set(queryId, entry);
    });
    const entry = this.#pending.get(queryId) as Pending;
    try {
      await this.ctx.send("ocp.collective.query", BROADCAST, payload, {
        deadline: this.ctx.now() + timeout,
      });
    } catch (error) {
      entry.done("timeout");
      throw error;
    }
    const stoppedBy = await stopped;
    const responses = entry.responses;
    const synthesis = await this.synthesizer.synthesize(query, queryId, responses);
    const sources = responses.map((r) => r.from);
    if (sources.length > 0) await this.ctx.send("ocp.collective.synthesis", sources, synthesis);
    return { queryId, responses, synthesis, stoppedBy };
  }

  async handle(
    m: MessageOf<"ocp.collective.query" | "ocp.collective.response" | "ocp.collective.synthesis">,
  ): Promise<void> {
    switch (m.type) {
      case "ocp.collective.query": {
        if (!this.answer) return;
        const started = this.ctx.now();
        const to = replyAddress(m);
        const structured = m.payload.structuredQuery;
        // §8.5: only nodes the querier may see are searched.
        const { findings, nodesSearched } = searchNodes(
          this.ctx.graph
            .liveNodes()
            .filter((n) => this.ctx.maySee(n, m.from) && this.ctx.maySee(n, to)),
          m.payload.query,
          {
            keywords: structured?.keywords ?? [],
            domains: structured?.domains ?? [],
            limit: MAX_FINDINGS_PER_RESPONSE,
          },
        );
        const confidence =
          findings.length === 0
            ? 0
            : findings.reduce((s, f) => s + f.relevance * f.node.confidence, 0) /
              findings.reduce((s, f) => s + f.relevance, 0);
        await this.ctx.send(
          "ocp.collective.response",
          to,
          {
            queryId: m.payload.queryId,
            findings,
            confidence,
            processingTime: this.ctx.now() - started,
            metadata: { nodesSearched, relevanceScores: findings.map((f) => f.relevance) },
          },
          // The querier waits at most its timeout (ours caps it): no use after that.
          {
            correlationId: m.id,
            deadline: started + Math.min(m.payload.timeout, MAX_COLLECTIVE_TIMEOUT_MS),
          },
        );
        return;
      }
      case "ocp.collective.response": {
        const pending = this.#pending.get(m.payload.queryId);
        if (pending === undefined || pending.responses.some((r) => r.from === m.from)) return;
        pending.responses.push({ from: m.from, payload: m.payload, receipt: receiptOf(m) });
        const n = pending.responses.length;
        if (pending.payload.minResponses !== undefined && n >= pending.payload.minResponses)
          pending.done("minResponses");
        else if (pending.payload.maxResponses !== undefined && n >= pending.payload.maxResponses)
          pending.done("maxResponses");
        return;
      }
      case "ocp.collective.synthesis":
        this.onSynthesis(m.payload, m.from);
        return;
    }
  }

  close(): void {
    for (const p of [...this.#pending.values()]) p.done("timeout");
  }
}
