import { createHash } from "node:crypto";
import {
  type Capabilities,
  type ContextFrame,
  type ContextQuery,
  type ContextQueryResult,
  type FrameKind,
  type ProviderInfo,
  wireError,
} from "@ocp/types";
import { canonicalTokenCost, compareCgpTimestamps } from "@ocp/types/cgp";
import type {
  CgpDeclarations,
  DualProvider,
  FrameIdentity,
  ServedQueryOptions,
  VerifyAnswer,
} from "@ocp/types/kit";
import { cgpFrame, verifyFrames } from "./cgp.js";
import type { Corpus, Entry } from "./corpus.js";
import { fitPart, type Part } from "./fit.js";
import { ANCHOR_BOOST, MAX_PART_ATTEMPTS, MIN_PART_TOKENS } from "./limits.js";
import { countTokens } from "./tokens.js";

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
  /** The cost in the session's unit: o200k_base tokens (ocp/1) or B3 budget tokens (contextgraph/1). */
  readonly tokens: number;
}

function whole(entry: Entry, cgp: boolean): Served {
  return cgp ? { ...entry, tokens: canonicalTokenCost(entry.content) } : entry;
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
 * `max_frames` asked for, never over budget: token costs counted by BPE under
 * `ocp/1`, by B3 under `contextgraph/1` (see `cgp.ts`), where `as_of` is
 * honoured (a file modified after it is not served) and `verify` answers
 * from the files as they are now. Local only: it reads files and sends
 * nothing anywhere (egress scope `local-only`).
 */
export class DemoProvider implements DualProvider {
  readonly id: string;
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  readonly cgp: CgpDeclarations = { egressScopes: ["local-only"] };
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

  async query(query: ContextQuery, options: ServedQueryOptions = {}): Promise<ContextQueryResult> {
    options.signal?.throwIfAborted();
    const cgp = options.family === "contextgraph/1";
    const asOf = cgp ? query.as_of : undefined;
    const kinds = query.kinds.filter((kind) => SERVED_KINDS.includes(kind));
    if (query.kinds.length > 0 && kinds.length === 0) {
      throw wireError(
        "unsupported_kind",
        `this provider serves ${SERVED_KINDS.join(", ")} frames, not ${query.kinds.join(", ")}`,
      );
    }
    const text = [query.goal, query.query_text ?? ""].join(" ").trim();
    // Under CGP a frame cites the file's exact bytes, and content last modified after as_of was not yet true then.
    const hits = this.corpus
      .query(text, kinds, query.anchors, ANCHOR_BOOST)
      .filter(
        (hit) =>
          !cgp ||
          (hit.entry.exact &&
            (!asOf || (compareCgpTimestamps(hit.entry.recordedAt, asOf) ?? 1) <= 0)),
      );
    const best = hits[0]?.score ?? 0;
    const frames: ContextFrame[] = [];
    let tokens = 0;
    let cuts = 0;
    let cut = false;
    for (const hit of hits) {
      if (frames.length >= query.max_frames) break;
      const left = query.max_tokens - tokens;
      let served: Served | undefined = whole(hit.entry, cgp);
      if (served.tokens > left) served = undefined;
      if (served === undefined && left >= MIN_PART_TOKENS && cuts < MAX_PART_ATTEMPTS) {
        cuts++;
        const count = cgp ? canonicalTokenCost : countTokens;
        const part = fitPart(hit.entry.content, hit.entry.start, left, text, count);
        if (part) {
          served = partOf(hit.entry, part);
          cut = true;
        }
      }
      if (served === undefined) continue;
      tokens += served.tokens;
      const frame = toFrame(hit.entry, served, normalise(hit.score, best), this.info.name);
      frames.push(cgp ? cgpFrame(frame, hit.entry, served.content, served.end) : frame);
    }
    if (frames.length === 0 && hits.length > 0 && query.max_tokens > 0 && query.max_frames > 0) {
      const smallest = Math.min(...hits.map((hit) => whole(hit.entry, cgp).tokens));
      throw wireError(
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

  /** V1–V4: see `verifyFrames`. */
  async verify(frames: readonly FrameIdentity[]): Promise<VerifyAnswer[]> {
    return verifyFrames(this.corpus, frames);
  }

  async shutdown(): Promise<void> {}
}
