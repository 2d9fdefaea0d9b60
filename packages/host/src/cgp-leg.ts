import type { ContextFrame, ContextQuery } from "@ocp/types";
import {
  type CgpFrame,
  type CgpQuery,
  type Violation as CgpViolation,
  cgpAnswerViolations,
  cgpAsOfViolations,
  cgpKindViolations,
  cgpQueryViolations,
  embeddingFits,
  isOpaqueFrame,
  offMachineScopes,
  type Representation,
} from "@ocp/types/cgp";
import type { AuditViolation } from "./audit.js";
import type { ConsentStore } from "./consent.js";
import { hostError } from "./errors.js";
import type { HostEventEmitter } from "./events.js";
import { consentRequired, failure, type LegOutcome, type Liar, type Trim } from "./fanout.js";
import { failedLeg } from "./leg.js";
import { checkFileDigest } from "./provenance.js";
import type { ReceiptLedger } from "./receipts.js";
import { describeEgress, type Entry } from "./registry.js";
import { type CgpSession, composable } from "./session.js";

/** What a CGP leg needs of its host. */
export interface CgpLegContext {
  readonly consent: ConsentStore;
  readonly receipts: ReceiptLedger;
  readonly events: HostEventEmitter;
  /** The host's own embedding space (E1); undefined: never send a vector. */
  readonly embeddingFingerprint: string | undefined;
  /** F5 bytes: folders whose files the host re-reads to check `file` provenance digests. */
  readonly trustedRoots: readonly string[];
}

/** The CGP members of one call: `as_of` (F4) and representation preferences (P5). */
export interface CgpCallMembers {
  readonly asOf?: string;
  readonly representations?: readonly Representation[];
}

/**
 * The consent gate of a CGP provider, before anything is sent (query or
 * verify). C6: every off-machine egress scope it declares needs a live
 * receipt, else `consent_scope_required` naming the scopes that lack one.
 * C1/C2: an egress provider declaring no off-machine scope needs the
 * boolean consent of the ocp/1 gate. Undefined when the way is open.
 */
export function cgpGate(
  ctx: CgpLegContext,
  id: string,
  entry: Entry,
  session: CgpSession,
): LegOutcome | undefined {
  const shut = cgpConsentMissing(ctx, id, entry, session);
  if (shut === undefined) return undefined;
  if (shut !== "boolean") {
    const missing = shut;
    ctx.events.emit("consent_asked", {
      providerId: id,
      name: session.info.name,
      version: session.info.version,
      whatLeaves: describeEgress(entry),
      scopes: missing,
    });
    const error = hostError(
      "consent_scope_required",
      `provider "${id}" (${session.info.name}) declares off-machine egress scope${missing.length === 1 ? "" : "s"} ${missing.join(", ")} without a consent receipt (C6); nothing was sent`,
      { details: { providerId: id, name: session.info.name, scopes: missing } },
    );
    return failure(id, "consent_scope_required", error);
  }
  ctx.events.emit("consent_asked", {
    providerId: id,
    name: entry.info.name,
    version: entry.info.version,
    whatLeaves: describeEgress(entry),
  });
  return consentRequired(id, entry.info.name);
}

/**
 * What consent a CGP provider still lacks, without a side effect: the
 * off-machine scopes without a live receipt (C6), `"boolean"` for an egress
 * provider declaring no off-machine scope and lacking the ocp/1-style
 * consent (C1/C2), or undefined when nothing is missing.
 */
export function cgpConsentMissing(
  ctx: Pick<CgpLegContext, "consent" | "receipts">,
  id: string,
  entry: Entry,
  session: CgpSession,
): string[] | "boolean" | undefined {
  const scopes = offMachineScopes(session.info.data_flow);
  const subject = { providerId: id, name: session.info.name, version: session.info.version };
  const missing = ctx.receipts.missingScopes(subject, scopes);
  if (missing.length > 0) return missing;
  if (scopes.length === 0 && entry.egress && !ctx.consent.isGranted(id, entry.info.name)) {
    return "boolean";
  }
  return undefined;
}

/** F4: a call's `asOf`, when given, is a UTC timestamp; `invalid_query` otherwise. */
export function checkCallMembers(members: CgpCallMembers): void {
  if (members.asOf === undefined) return;
  const broken = cgpQueryViolations({ as_of: members.asOf });
  if (broken.length > 0) {
    throw hostError("invalid_query", `invalid query: ${broken.map((v) => v.message).join("; ")}`);
  }
}

/**
 * The query a CGP provider receives. E1: the embedding only when the
 * host's fingerprint equals the provider's declared one exactly. P5:
 * representation preferences only among those the provider advertised
 * (none advertised: `full` only, so the member is left out). F4: `as_of`
 * must be a UTC timestamp (`invalid_query` otherwise).
 */
export function cgpQueryFor(
  ctx: CgpLegContext,
  session: CgpSession,
  query: ContextQuery,
  members: CgpCallMembers,
): CgpQuery {
  const fingerprint = session.capabilities.embeddings_fingerprint;
  // Equal fingerprints, and a vector of the dimension they name (else the provider answers bad_request).
  const embed =
    query.embedding != null &&
    ctx.embeddingFingerprint !== undefined &&
    fingerprint === ctx.embeddingFingerprint &&
    embeddingFits(query.embedding, fingerprint);
  const advertised = session.capabilities.representations;
  const preferences = (members.representations ?? []).filter((r) => advertised.includes(r));
  const cgp: CgpQuery = {
    goal: query.goal,
    ...(query.query_text != null ? { query_text: query.query_text } : {}),
    ...(embed ? { embedding: [...(query.embedding as number[])] } : {}),
    kinds: [...query.kinds],
    anchors: [...query.anchors],
    max_frames: query.max_frames,
    max_tokens: query.max_tokens,
    ...(members.asOf !== undefined ? { as_of: members.asOf } : {}),
    ...(preferences.length > 0 ? { representation_preferences: preferences } : {}),
  };
  const broken = cgpQueryViolations(cgp);
  if (broken.length > 0) {
    throw hostError("invalid_query", `invalid query: ${broken.map((v) => v.message).join("; ")}`);
  }
  return cgp;
}

/**
 * Runs one CGP leg: sends the query through the session (whose transport
 * keeps the deadline and the abort) and judges the answer by the one
 * rulebook (`cgpAnswerViolations`): any violation, B1, B4 and B3 among
 * them, drops the whole answer with a loud report (B2); nothing is trimmed.
 * Of an accepted answer, frames of a known kind with inline content are
 * composed; `reference` frames contribute nothing (never fabricated) and
 * frames of an unknown kind are kept apart as opaque evidence (U2).
 */
export function runCgpLeg(
  session: CgpSession,
  query: CgpQuery,
  options: {
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    trustedRoots?: readonly string[];
  },
): Promise<LegOutcome> {
  const providerId = session.id;
  const started = performance.now();
  if (options.signal?.aborted) {
    return Promise.resolve(
      failure(providerId, "aborted", hostError("aborted", `query to "${providerId}" aborted`)),
    );
  }
  let call: Promise<Awaited<ReturnType<CgpSession["query"]>>>;
  try {
    call = session.query(query, { signal: options.signal, timeoutMs: options.timeoutMs });
  } catch (error) {
    return Promise.resolve(failedLeg(providerId, error, started));
  }
  const roots = options.trustedRoots ?? [];
  return call.then(
    async (result) => {
      const bytes = roots.length === 0 ? [] : await fileDigestViolations(result.frames, roots);
      return judgeCgp(providerId, query, result, elapsed(started), bytes);
    },
    (error: unknown) => failedLeg(providerId, error, started),
  );
}

/**
 * F5 bytes (SPEC §6.2): every `file` provenance digest under a trusted root
 * checked against the bytes on disk; a mismatch is a violation of F5 that
 * drops the answer like any other. What cannot be read is not evidence.
 */
async function fileDigestViolations(
  frames: readonly CgpFrame[],
  roots: readonly string[],
): Promise<CgpViolation[]> {
  const out: CgpViolation[] = [];
  for (const frame of frames) {
    for (const [index, entry] of frame.provenance.entries()) {
      if (entry.type !== "file") continue;
      const check = await checkFileDigest(entry, roots);
      if (check.status !== "mismatch") continue;
      out.push({
        rule: "F5",
        frameId: frame.id,
        field: `provenance[${index}].digest`,
        message: `frame "${frame.id}": file provenance digest ${check.expected} does not match the bytes of ${entry.uri}${entry.range ? ` ${entry.range}` : ""} (${check.actual})`,
      });
    }
  }
  return out;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

function judgeCgp(
  providerId: string,
  query: CgpQuery,
  result: { frames: CgpFrame[]; truncated: boolean },
  latencyMs: number,
  bytes: readonly CgpViolation[],
): LegOutcome {
  // X-ASOF: a frame valid only after the as_of pin breaks the pin and drops the answer.
  const broken = [
    ...cgpAnswerViolations(query, result.frames),
    ...cgpAsOfViolations(query, result.frames),
    ...bytes,
  ];
  const violations = broken.map((v) => {
    const frameIndex =
      v.frameId === undefined ? -1 : result.frames.findIndex((f) => f.id === v.frameId);
    return frameIndex === -1 ? v : { ...v, frameIndex };
  });
  if (violations.length > 0) {
    const liar: Liar = {
      providerId,
      violations,
      frames: result.frames.map(quarantined),
      message: describeCgpViolations(providerId, query, result.frames, violations),
      latencyMs,
    };
    return {
      kind: "dropped",
      liar,
      result: { frames: [...liar.frames], truncated: result.truncated },
    };
  }
  const frames: ContextFrame[] = [];
  const accepted: CgpFrame[] = [];
  const opaque: CgpFrame[] = [];
  const unresolved: CgpFrame[] = [];
  // K1 (our extension, kept under contextgraph/1): frames of kinds not asked for are trimmed.
  const unasked: AuditViolation[] = cgpKindViolations(query, result.frames).map((v) => {
    const frameIndex = result.frames.findIndex((f) => f.id === v.frameId);
    return { ...v, rule: "K1" as const, frameIndex, value: result.frames[frameIndex]?.kind };
  });
  const asked = new Set(query.kinds);
  for (const frame of result.frames) {
    if (asked.size > 0 && !asked.has(frame.kind)) continue;
    if (isOpaqueFrame(frame)) opaque.push(frame);
    else {
      const ocp = composable(frame);
      if (ocp === undefined) unresolved.push(frame);
      else {
        frames.push(ocp);
        accepted.push(frame);
      }
    }
  }
  const trimmed: Trim | undefined =
    unasked.length === 0
      ? undefined
      : {
          providerId,
          violations: unasked,
          removed: unasked.length,
          message: `provider "${providerId}" trimmed (K1): ${unasked.map((v) => v.message).join("; ")}`,
        };
  return {
    kind: "ok",
    providerId,
    result: { frames, truncated: result.truncated },
    latencyMs,
    cgp: { frames: accepted, opaque, unresolved },
    ...(trimmed === undefined ? {} : { trimmed }),
  };
}

/** A dropped frame as `compose` lists it (quarantined): its content, or none. */
function quarantined(frame: CgpFrame): ContextFrame {
  return composable(frame) ?? { ...composable({ ...frame, kind: "doc", content: "" })! };
}

/** One loud line: the provider, the rules, the figures, the first five violations. */
export function describeCgpViolations(
  providerId: string,
  query: Pick<CgpQuery, "max_tokens" | "max_frames">,
  frames: readonly CgpFrame[],
  violations: readonly { readonly rule: string; readonly message: string }[],
): string {
  const rules = [...new Set(violations.map((v) => v.rule))].join(", ");
  const declared = frames.reduce((sum, frame) => sum + frame.token_cost, 0);
  const head =
    `provider "${providerId}" dropped (${rules}): ${frames.length} ` +
    `frame${frames.length === 1 ? "" : "s"} declaring ${declared} tokens for max_tokens ` +
    `${query.max_tokens}, max_frames ${query.max_frames}`;
  const shown = violations.slice(0, 5).map((v) => v.message);
  if (violations.length > 5) shown.push(`… and ${violations.length - 5} more`);
  return `${head}; ${shown.join("; ")}`;
}
