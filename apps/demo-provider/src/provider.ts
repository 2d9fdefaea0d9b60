import {
  type Capabilities,
  type ContextFrame,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  type FrameKind,
  OcpError,
  type ProviderInfo,
  type QueryOptions,
} from "@ocp/types";
import type { Corpus, Entry } from "./corpus.js";
import { ANCHOR_BOOST } from "./limits.js";

/** The kinds this provider serves. */
export const SERVED_KINDS: readonly FrameKind[] = ["doc", "symbol", "snippet"];

export interface DemoProviderOptions {
  readonly id?: string;
  readonly name?: string;
  readonly version?: string;
}

/** Scores are normalised to [0, 1] and kept to four decimals. */
function normalise(score: number, best: number): number {
  return best <= 0 ? 0 : Math.round((score / best) * 10_000) / 10_000;
}

function citation(entry: Entry): string {
  const name = entry.relpath.slice(entry.relpath.lastIndexOf("/") + 1);
  return entry.start === entry.end
    ? `${name} L${entry.start}`
    : `${name} L${entry.start}-${entry.end}`;
}

function toFrame(entry: Entry, score: number, providerName: string): ContextFrame {
  const range = `L${entry.start}-${entry.end}`;
  return {
    id: entry.id,
    kind: entry.kind,
    title: entry.title,
    content: entry.content,
    uri: entry.uri,
    score,
    token_cost: entry.tokens,
    recorded_at: entry.recordedAt,
    provenance: [
      {
        type: "file",
        uri: entry.uri,
        range,
        digest: entry.digest,
        method:
          entry.kind === "doc"
            ? "markdown-section"
            : entry.kind === "symbol"
              ? "symbol-lines"
              : "source-lines",
        by: providerName,
      },
    ],
    citation_label: citation(entry),
    relations: [],
  };
}

/**
 * An honest provider over a {@link Corpus}: BM25-ranked frames, the kinds and
 * `max_frames` asked for, token costs counted by BPE, never over budget.
 * Local only: it reads files and sends nothing anywhere.
 */
export class DemoProvider implements ContextProvider {
  readonly id: string;
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  private readonly corpus: Corpus;

  constructor(corpus: Corpus, options: DemoProviderOptions = {}) {
    this.corpus = corpus;
    this.id = options.id ?? "demo";
    this.info = {
      name: options.name ?? "ocp-demo-provider",
      version: options.version ?? "0.1.0",
      data_flow: { reads: true, writes: false, egress: false },
    };
    this.capabilities = {
      query: { kinds: [...SERVED_KINDS], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
      correlation: true,
    };
  }

  async query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
    options.signal?.throwIfAborted();
    const kinds = query.kinds.filter((kind) => SERVED_KINDS.includes(kind));
    if (query.kinds.length > 0 && kinds.length === 0) {
      throw new OcpError(
        "unsupported_kind",
        `this provider serves ${SERVED_KINDS.join(", ")} frames, not ${query.kinds.join(", ")}`,
      );
    }
    const text = [query.goal, query.query_text ?? ""].join(" ").trim();
    const hits = this.corpus.query(text, kinds, query.anchors, ANCHOR_BOOST);
    const best = hits[0]?.score ?? 0;
    const frames: ContextFrame[] = [];
    let tokens = 0;
    for (const hit of hits) {
      if (frames.length >= query.max_frames) break;
      if (tokens + hit.entry.tokens > query.max_tokens) continue;
      tokens += hit.entry.tokens;
      frames.push(toFrame(hit.entry, normalise(hit.score, best), this.info.name));
    }
    const dropped = hits.length - frames.length;
    return dropped > 0
      ? { frames, truncated: true, dropped_estimate: dropped }
      : { frames, truncated: false };
  }

  async shutdown(): Promise<void> {}
}
