import { createHash } from "node:crypto";
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
import { fitPart, type Part } from "./fit.js";
import { ANCHOR_BOOST, MAX_PART_ATTEMPTS, MIN_PART_TOKENS } from "./limits.js";

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

/** What one frame serves: a whole entry, or the part of it that fits. */
interface Served {
  readonly id: string;
  readonly start: number;
  readonly end: number;
  readonly content: string;
  readonly digest: string;
  readonly tokens: number;
}

function whole(entry: Entry): Served {
  return entry;
}

function partOf(entry: Entry, part: Part): Served {
  return {
    id: entry.id.replace(/#L\d+-\d+$/, `#L${part.start}-${part.end}`),
    start: part.start,
    end: part.end,
    content: part.content,
    digest: `sha256:${createHash("sha256").update(part.content, "utf8").digest("hex")}`,
    tokens: part.tokens,
  };
}

/** `docs/guide.md L10-42`: the path relative to the provider's root, and the lines. */
function citation(entry: Entry, served: Served): string {
  return served.start === served.end
    ? `${entry.relpath} L${served.start}`
    : `${entry.relpath} L${served.start}-${served.end}`;
}

function toFrame(entry: Entry, served: Served, score: number, providerName: string): ContextFrame {
  const cut = served.start !== entry.start || served.end !== entry.end;
  return {
    id: served.id,
    kind: entry.kind,
    title: cut ? `${entry.title} (L${served.start}-${served.end})` : entry.title,
    content: served.content,
    uri: entry.uri,
    score,
    token_cost: served.tokens,
    recorded_at: entry.recordedAt,
    provenance: [
      {
        type: "file",
        uri: entry.uri,
        range: `L${served.start}-${served.end}`,
        digest: served.digest,
        method:
          entry.kind === "doc"
            ? "markdown-section"
            : entry.kind === "symbol"
              ? "symbol-lines"
              : "source-lines",
        by: providerName,
      },
    ],
    citation_label: citation(entry, served),
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
    let cuts = 0;
    let cut = false;
    for (const hit of hits) {
      if (frames.length >= query.max_frames) break;
      const left = query.max_tokens - tokens;
      let served: Served | undefined;
      if (hit.entry.tokens <= left) served = whole(hit.entry);
      else if (left >= MIN_PART_TOKENS && cuts < MAX_PART_ATTEMPTS) {
        cuts++;
        const part = fitPart(hit.entry.content, hit.entry.start, left, text);
        if (part) {
          served = partOf(hit.entry, part);
          cut = true;
        }
      }
      if (served === undefined) continue;
      tokens += served.tokens;
      frames.push(toFrame(hit.entry, served, normalise(hit.score, best), this.info.name));
    }
    if (frames.length === 0 && hits.length > 0 && query.max_tokens > 0 && query.max_frames > 0) {
      const smallest = Math.min(...hits.map((hit) => hit.entry.tokens));
      throw new OcpError(
        "budget_unsatisfiable",
        `no frame fits in max_tokens ${query.max_tokens}: the smallest of ${hits.length} matching frames costs ${smallest} tokens, and no part of one fits (parts are at least ${MIN_PART_TOKENS} tokens)`,
      );
    }
    // A section cut to a part is truncated too: some of its lines did not fit.
    const dropped = hits.length - frames.length;
    return dropped > 0
      ? { frames, truncated: true, dropped_estimate: dropped }
      : { frames, truncated: cut };
  }

  async shutdown(): Promise<void> {}
}
