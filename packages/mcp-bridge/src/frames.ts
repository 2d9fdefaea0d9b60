import { createHash } from "node:crypto";
import { countTokens } from "@ocp/host";
import type { ContextFrame, FrameKind, Provenance } from "@ocp/types";

export interface FrameParts {
  readonly kind: FrameKind;
  readonly title: string;
  readonly content: string;
  readonly uri?: string | undefined;
  readonly score: number;
  readonly citationLabel: string;
  readonly provenance: Provenance;
}

/** A short, stable digest of `text`: frame ids stay the same for the same content. */
export function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * One frame, costed honestly: `token_cost` is the o200k_base count of its
 * title plus its content, by the host's own counter (`@ocp/host`
 * `countTokens`), so the host's audit (T1) measures exactly what we declare.
 */
export function makeFrame(parts: FrameParts): ContextFrame {
  const title = parts.title.trim() === "" ? parts.citationLabel : parts.title;
  const sha = digest(parts.content);
  return {
    id: `${parts.uri ?? parts.citationLabel}#${sha.slice(0, 12)}`,
    kind: parts.kind,
    title,
    content: parts.content,
    uri: parts.uri,
    score: parts.score,
    token_cost: countTokens(title) + countTokens(parts.content),
    provenance: [{ ...parts.provenance, digest: `sha256:${sha}` }],
    citation_label: parts.citationLabel,
    relations: [],
  };
}

/** Fills frames best first while they fit `maxTokens` and `maxFrames` (B1, M1). */
export class BudgetPacker {
  readonly frames: ContextFrame[] = [];
  #left: number;
  readonly #maxFrames: number;
  dropped = 0;

  constructor(maxTokens: number, maxFrames: number) {
    this.#left = maxTokens;
    this.#maxFrames = maxFrames;
  }

  get full(): boolean {
    return this.frames.length >= this.#maxFrames || this.#left <= 0;
  }

  /** Adds `frame` if it fits; a frame that does not fit is counted as dropped. */
  offer(frame: ContextFrame): boolean {
    if (this.full || frame.token_cost > this.#left) {
      this.dropped += 1;
      return false;
    }
    this.frames.push(frame);
    this.#left -= frame.token_cost;
    return true;
  }

  result(pending: number): {
    frames: ContextFrame[];
    truncated: boolean;
    dropped_estimate?: number;
  } {
    const dropped = this.dropped + pending;
    return dropped > 0
      ? { frames: this.frames, truncated: true, dropped_estimate: dropped }
      : { frames: this.frames, truncated: false };
  }
}
