import { CGP_PROTOCOL_VERSION, familyOfVersion } from "@ocp/types/cgp";
import { runCgpConformance } from "./cgp/run.js";
import { describeCgp, exchange, namesVersion } from "./cgp/wire.js";
import { HANDSHAKE_TIMEOUT_MS, positiveBound } from "./limits.js";
import type { ConformanceReport } from "./report.js";
import { type RunOptions, runConformance } from "./run.js";
import { openSession, type Target, transportOf } from "./targets.js";

/** Which rulebook `ocp-inspect` judges with: one family, or `auto` (offer CGP, fall back by name). */
export type FamilyChoice = "ocp" | "contextgraph" | "auto";

export const FAMILY_CHOICES: readonly FamilyChoice[] = ["ocp", "contextgraph", "auto"];

export interface FamilyRunOptions extends RunOptions {
  /** Default `ocp` (every run before CGP judged ocp/1). */
  readonly family?: FamilyChoice;
}

/** How `auto` decided, for the report and the CLI. */
export interface FamilyDecision {
  readonly family: "ocp/1" | "contextgraph/1";
  readonly why: string;
}

/**
 * `auto`: offers contextgraph/1.0-draft on a connection of its own. A
 * provider that acks it is judged under contextgraph/1; one that refuses it
 * by name (an `error`, code `incompatible_version` or a message naming the
 * version) or acks an ocp/1 version is judged under ocp/1. Anything else (a
 * hang, a crash) is judged under contextgraph/1, whose handshake check then
 * reports it. An in-process provider speaks ocp/1.
 */
export async function chooseFamily(
  target: Target,
  options: RunOptions = {},
): Promise<FamilyDecision> {
  if (transportOf(target) === "in-process") {
    return { family: "ocp/1", why: "an in-process ContextProvider speaks ocp/1" };
  }
  const session = openSession(target, "family", () => {});
  try {
    const reply = await exchange(
      session,
      { type: "handshake", protocol_version: CGP_PROTOCOL_VERSION },
      "family handshake",
      positiveBound("handshakeTimeoutMs", options.handshakeTimeoutMs, HANDSHAKE_TIMEOUT_MS),
    );
    if (reply.kind === "message" && reply.type === "handshake_ack") {
      const family = familyOfVersion(String(reply.raw.protocol_version ?? ""));
      if (family === "ocp/1")
        return {
          family,
          why: `acked ${String(reply.raw.protocol_version)} to an offer of ${CGP_PROTOCOL_VERSION}`,
        };
      return { family: "contextgraph/1", why: `acked ${String(reply.raw.protocol_version)}` };
    }
    if (
      reply.kind === "message" &&
      reply.type === "error" &&
      (reply.raw.code === "incompatible_version" || namesVersion(reply.raw.message))
    ) {
      return {
        family: "ocp/1",
        why: `refused ${CGP_PROTOCOL_VERSION} by name: ${describeCgp(reply)}`,
      };
    }
    return {
      family: "contextgraph/1",
      why: `no named refusal of ${CGP_PROTOCOL_VERSION} (${describeCgp(reply)})`,
    };
  } finally {
    await session.dispose();
  }
}

/** Runs the provider suite of the chosen family; the report names the family that judged it. */
export async function runFamilyConformance(
  target: Target,
  options: FamilyRunOptions = {},
): Promise<ConformanceReport & { readonly familyDecision?: string }> {
  const choice = options.family ?? "ocp";
  const decision =
    choice === "auto"
      ? await chooseFamily(target, options)
      : { family: choice === "ocp" ? ("ocp/1" as const) : ("contextgraph/1" as const), why: "" };
  const report =
    decision.family === "contextgraph/1"
      ? await runCgpConformance(target, options)
      : choice === "ocp"
        ? await runConformance(target, options)
        : { ...(await runConformance(target, options)), family: "ocp/1" as const };
  return choice === "auto" ? { ...report, familyDecision: decision.why } : report;
}
