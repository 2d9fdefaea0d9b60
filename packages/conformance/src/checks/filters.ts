import { type ContextQueryResult, FRAME_KINDS, type FrameKind } from "@ocp/types";
import { excerpt, listOf } from "../evidence.js";
import { describeReply, type Reply } from "../probe.js";
import { type CheckResult, fail, pass } from "../report.js";

const KNOWN: ReadonlySet<string> = new Set(FRAME_KINDS);

/**
 * The kind the kinds-filter probe asks for, chosen so a provider that
 * ignores the filter shows it: the rarest kind the probe returned when it
 * returned several; else a declared kind the probe did not return; else a
 * kind the provider did not return at all.
 */
export function pickKind(probe: ContextQueryResult, declared: readonly string[]): FrameKind {
  const counts = new Map<FrameKind, number>();
  for (const frame of probe.frames) counts.set(frame.kind, (counts.get(frame.kind) ?? 0) + 1);
  if (counts.size >= 2) {
    return [...counts].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  }
  const served = declared.filter((kind): kind is FrameKind => KNOWN.has(kind));
  const unseen = served.find((kind) => !counts.has(kind));
  if (unseen !== undefined) return unseen;
  if (counts.size === 0) return served[0] ?? "doc";
  return FRAME_KINDS.find((kind) => !counts.has(kind)) ?? "doc";
}

/** kinds-filter (K1, advisory): a query for one kind returns no frame of another. */
export function judgeKinds(reply: Reply, kind: FrameKind): CheckResult {
  const asked = `asked for kinds [${kind}]`;
  if (reply.kind === "error") {
    return pass(
      "kinds-filter",
      `${asked}: answered ${describeReply(reply)} — no frame of another kind`,
    );
  }
  if (reply.kind === "broken") return fail("kinds-filter", `K1: ${asked}: ${reply.evidence}`);
  const wrong = reply.result.frames.flatMap((frame, index) =>
    frame.kind === kind ? [] : [`frame ${index} (${excerpt(frame.id)}) is a "${frame.kind}"`],
  );
  if (wrong.length > 0) {
    return fail(
      "kinds-filter",
      `K1: ${asked}, got ${wrong.length} of ${reply.result.frames.length} frame(s) of other kinds: ${listOf(wrong)}`,
    );
  }
  return pass("kinds-filter", `${asked}: ${reply.result.frames.length} frame(s), all "${kind}"`);
}

/** The frame limit the max-frames probe asks for. */
export const MAX_FRAMES_PROBE = 1;

/** max-frames (M1, advisory): a query never gets more than `max_frames` frames. */
export function judgeMaxFrames(reply: Reply, probeCount: number): CheckResult {
  const asked = `asked for max_frames ${MAX_FRAMES_PROBE} (the probe query returned ${probeCount})`;
  if (reply.kind === "error")
    return pass("max-frames", `${asked}: answered ${describeReply(reply)}`);
  if (reply.kind === "broken") return fail("max-frames", `M1: ${asked}: ${reply.evidence}`);
  const count = reply.result.frames.length;
  if (count > MAX_FRAMES_PROBE) {
    return fail("max-frames", `M1: ${asked}, got ${count} frames`);
  }
  return pass("max-frames", `${asked}: got ${count}`);
}
