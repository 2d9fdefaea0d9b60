/**
 * Collective queries as the hub sees them (§5.2): `ocp.collective.query`
 * opens one, each `ocp.collective.response` is listed as it arrives (one per
 * responder, the asker's own ignored), and the asker's
 * `ocp.collective.synthesis` closes it. A synthesis from anyone but the asker
 * is ignored. The synthesised text is built from the responders' nodes, so
 * it is shown only when every node of every response seen was shown (see
 * {@link nodeView}), or when the operator enabled every visibility.
 */
import type { AcceptedEvent } from "./events.js";
import type { QueryView, SynthesisView } from "./views.js";

/** At most this many characters of a question, an answer or one point are kept. */
const MAX_TEXT = 500;
/** At most this many key points, consensus and dissent points, sources and responses. */
const MAX_ITEMS = 20;

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value.slice(0, MAX_TEXT) : undefined;
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const texts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value
        .slice(0, MAX_ITEMS)
        .flatMap((v) => (typeof v === "string" ? [v.slice(0, MAX_TEXT)] : []))
    : [];

interface Entry {
  view: QueryView;
  /** Whether a node of a response was withheld (so the synthesis text is too). */
  withheld: boolean;
}

export class QueryBook {
  readonly #queries = new Map<string, Entry>();

  constructor(
    readonly max: number,
    readonly showAll: boolean,
  ) {}

  /** The queries, oldest first. */
  views(): QueryView[] {
    return [...this.#queries.values()].map((e) => e.view);
  }

  /** Whether a response of `from` to query `id` would be listed (a known query, not its asker, not twice). */
  awaits(id: string, from: string): boolean {
    const query = this.#queries.get(id)?.view;
    return (
      query !== undefined &&
      from !== query.asker &&
      query.responses.length < MAX_ITEMS &&
      !query.responses.some((r) => r.from === from)
    );
  }

  get(id: string): QueryView | undefined {
    return this.#queries.get(id)?.view;
  }

  /**
   * Applies one collective message; `withheld` says whether a node of a
   * response was withheld from the page. Returns the id of the query it
   * changed.
   */
  apply(
    event: AcceptedEvent,
    payload: Record<string, unknown>,
    withheld = false,
  ): string | undefined {
    const id = text(payload["queryId"]);
    if (id === undefined) return undefined;
    if (event.type === "ocp.collective.query") {
      const query = text(payload["query"]);
      if (query === undefined || this.#queries.has(id)) return undefined;
      this.#queries.set(id, {
        withheld: false,
        view: {
          id,
          asker: event.from,
          query,
          at: event.at,
          deadline: event.at + (num(payload["timeout"]) ?? 0),
          minResponses: num(payload["minResponses"]),
          maxResponses: num(payload["maxResponses"]),
          responses: [],
          status: "collecting",
        },
      });
      while (this.#queries.size > this.max) {
        this.#queries.delete(this.#queries.keys().next().value!);
      }
      return id;
    }
    const entry = this.#queries.get(id);
    if (entry === undefined) return undefined;
    const query = entry.view;
    if (event.type === "ocp.collective.response") {
      if (!this.awaits(id, event.from)) return undefined;
      query.responses.push({
        from: event.from,
        at: event.at,
        findings: Array.isArray(payload["findings"]) ? payload["findings"].length : 0,
        confidence: num(payload["confidence"]) ?? 0,
        verified: event.verified,
      });
      entry.withheld ||= withheld;
      return id;
    }
    if (event.type !== "ocp.collective.synthesis") return undefined;
    // Only the asker synthesises its query, once.
    if (event.from !== query.asker || query.synthesis !== undefined) return undefined;
    query.synthesis = this.#synthesis(event, payload, entry);
    query.status = "synthesized";
    return id;
  }

  /** Queries past their deadline (and a grace of `graceMs`) without a synthesis; returns their ids. */
  expire(now: number, graceMs: number): string[] {
    const expired: string[] = [];
    for (const { view } of this.#queries.values()) {
      if (view.status === "collecting" && view.deadline + graceMs < now) {
        view.status = "unanswered";
        expired.push(view.id);
      }
    }
    return expired;
  }

  #synthesis(event: AcceptedEvent, payload: Record<string, unknown>, entry: Entry): SynthesisView {
    const consensus = texts(payload["consensus"]);
    const dissent = texts(payload["dissent"]);
    const shown = this.showAll || (entry.view.responses.length > 0 && !entry.withheld);
    return {
      at: event.at,
      from: event.from,
      confidence: num(payload["confidence"]) ?? 0,
      sources: texts(payload["sources"]),
      consensusCount: consensus.length,
      dissentCount: dissent.length,
      ...(shown
        ? {
            answer: text(payload["answer"]) ?? "",
            keyPoints: texts(payload["keyPoints"]),
            consensus,
            dissent,
          }
        : {}),
    };
  }
}
