import { isOcpError } from "@ocp/types";
import type { AcceptedFrame, LegOutcome } from "./fanout.js";
import type { Entry } from "./registry.js";
import {
  type DroppedHeld,
  drop,
  identityOf,
  partitionVerdicts,
  type ReuseVerdict,
  requeryOf,
} from "./reuse.js";
import type { CgpSession } from "./session.js";

export type { ReuseVerdict };

/** What `verifyHeld` needs of its host. */
export interface VerifyHost {
  entry(providerId: string): Entry | undefined;
  /** The consent gate of a CGP provider (undefined: open). */
  gate(providerId: string, entry: Entry, session: CgpSession): LegOutcome | undefined;
  timeoutMs(entry: Entry): number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Revalidates held frames (§9), one `verify` per provider, concurrently:
 * only identities carrying a `content_digest` are sent (V1, D3), only to a
 * provider that declared `capabilities.verify` and whose consent gate is
 * open; only `valid` keeps a frame (V3); a provider that fails drops its
 * own frames only. Every held frame ends in `retained` or `dropped`.
 */
export async function verifyHeld(
  held: readonly AcceptedFrame[],
  host: VerifyHost,
): Promise<ReuseVerdict> {
  const retained: AcceptedFrame[] = [];
  const dropped: DroppedHeld[] = [];
  const byProvider = new Map<string, AcceptedFrame[]>();
  for (const frame of held) {
    const list = byProvider.get(frame.providerId) ?? [];
    list.push(frame);
    byProvider.set(frame.providerId, list);
  }
  await Promise.all(
    [...byProvider].map(async ([providerId, frames]) => {
      const entry = host.entry(providerId);
      const session = entry?.session;
      if (entry === undefined || session === undefined) {
        const reason = entry === undefined ? "unknown_provider" : "not_verifiable";
        for (const frame of frames) dropped.push(drop(frame, reason));
        return;
      }
      const asked: AcceptedFrame[] = [];
      for (const frame of frames) {
        const digest = frame.cgp?.content_digest;
        if (frame.cgp === undefined) dropped.push(drop(frame, "not_verifiable"));
        else if (typeof digest !== "string" || digest === "")
          dropped.push(drop(frame, "no_digest"));
        else asked.push(frame);
      }
      if (asked.length === 0) return;
      if (!session.capabilities.verify) {
        for (const frame of asked) dropped.push(drop(frame, "verify_not_supported"));
        return;
      }
      const gated = host.gate(providerId, entry, session);
      if (gated !== undefined) {
        const error = gated.kind === "failed" ? gated.failure.error : undefined;
        for (const frame of asked)
          dropped.push(drop(frame, "consent_required", error ? { error } : {}));
        return;
      }
      try {
        const response = await session.verify(
          { frames: asked.map(identityOf) },
          { timeoutMs: host.timeoutMs(entry), signal: host.signal },
        );
        const verdict = partitionVerdicts(asked, response.verdicts);
        retained.push(...verdict.retained);
        dropped.push(...verdict.dropped);
      } catch (error) {
        const failure =
          isOcpError(error) || error instanceof Error ? error : new Error(String(error));
        for (const frame of asked) dropped.push(drop(frame, "verify_failed", { error: failure }));
      }
    }),
  );
  // Held order, whatever order the providers answered in.
  const order = new Map(held.map((frame, i) => [frame, i]));
  retained.sort((a, b) => order.get(a)! - order.get(b)!);
  dropped.sort((a, b) => order.get(a.held)! - order.get(b.held)!);
  return { retained, dropped, requery: requeryOf(dropped) };
}
