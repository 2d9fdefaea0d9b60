import type { CgpFrameId, CgpFrameVerdict } from "@ocp/types/cgp";
import type { AcceptedFrame } from "./fanout.js";

/**
 * Why a held frame may not be reused (§9, context-reuse §4). Every reason
 * but `gone` warrants a re-query.
 */
export type ReuseDropReason =
  /** V3/V4: the provider says its content changed. */
  | "stale"
  /** V4: the provider no longer has it. */
  | "gone"
  /** V3: the provider cannot say; never read as validity. */
  | "unknown"
  /** V2: the provider sent no verdict for it (treated as `unknown`). */
  | "no_verdict"
  /** D3: the frame has no `content_digest`: it cannot be revalidated. */
  | "no_digest"
  /** The provider did not declare `capabilities.verify`: nothing was sent. */
  | "verify_not_supported"
  /** The frame is not a contextgraph/1 frame, or its provider speaks ocp/1. */
  | "not_verifiable"
  /** The provider is no longer registered. */
  | "unknown_provider"
  /** The consent gate is shut for the provider (C2, C6): nothing was sent. */
  | "consent_required"
  /** The verify exchange failed (timeout, crash, error reply). */
  | "verify_failed";

export interface DroppedHeld {
  readonly held: AcceptedFrame;
  readonly reason: ReuseDropReason;
  /** V4: the provider's current digest, when a `stale` verdict named one. */
  readonly replacementDigest?: string;
  /** Whether the frame is worth fetching again (false only for `gone`). */
  readonly requery: boolean;
  /** The failure, for `verify_failed` and `consent_required`. */
  readonly error?: Error;
}

/** A total partition of the held frames: none is silently lost. */
export interface ReuseVerdict {
  /** Frames a provider called `valid` (V3): the only ones that may be reused. */
  readonly retained: readonly AcceptedFrame[];
  readonly dropped: readonly DroppedHeld[];
  /** Providers with at least one dropped frame worth re-querying. */
  readonly requery: readonly string[];
}

/** The identity a held frame is verified by (§6.3): the host's provider id, frame id, digest. */
export function identityOf(held: AcceptedFrame): CgpFrameId {
  return {
    provider_id: held.providerId,
    frame_id: held.cgp?.id ?? held.frame.id,
    content_digest: held.cgp?.content_digest ?? null,
  };
}

/** One string per identity: equal keys, equal (provider id, frame id, content digest). */
function keyOf(identity: CgpFrameId): string {
  return JSON.stringify([identity.provider_id, identity.frame_id, identity.content_digest ?? null]);
}

export function drop(
  held: AcceptedFrame,
  reason: ReuseDropReason,
  extra: { replacementDigest?: string; error?: Error } = {},
): DroppedHeld {
  return { held, reason, requery: reason !== "gone", ...extra };
}

/**
 * Reads one provider's verdicts for the identities asked (V2, V3, V4):
 * matched by the whole identity, never by position; a held frame is kept
 * only when every verdict echoing its identity is `valid` and there is at
 * least one. Verdicts for identities not asked are ignored.
 */
export function partitionVerdicts(
  asked: readonly AcceptedFrame[],
  verdicts: readonly CgpFrameVerdict[],
): { retained: AcceptedFrame[]; dropped: DroppedHeld[] } {
  const retained: AcceptedFrame[] = [];
  const dropped: DroppedHeld[] = [];
  const byIdentity = new Map<string, CgpFrameVerdict[]>();
  for (const verdict of verdicts) {
    const key = keyOf(verdict.frame);
    const list = byIdentity.get(key);
    if (list === undefined) byIdentity.set(key, [verdict]);
    else list.push(verdict);
  }
  for (const held of asked) {
    const mine = byIdentity.get(keyOf(identityOf(held))) ?? [];
    if (mine.length === 0) {
      dropped.push(drop(held, "no_verdict"));
      continue;
    }
    const bad = mine.find((v) => v.status !== "valid");
    if (bad === undefined) {
      retained.push(held);
      continue;
    }
    const replacement = bad.status === "stale" ? bad.replacement_digest : undefined;
    dropped.push(
      drop(
        held,
        bad.status as ReuseDropReason,
        typeof replacement === "string" ? { replacementDigest: replacement } : {},
      ),
    );
  }
  return { retained, dropped };
}

/** The providers whose dropped frames warrant a re-query, each once, in order. */
export function requeryOf(dropped: readonly DroppedHeld[]): string[] {
  return [...new Set(dropped.filter((d) => d.requery).map((d) => d.held.providerId))];
}
