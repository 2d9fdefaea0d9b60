/**
 * The open vocabularies of the Context Graph Protocol: egress scopes (§4.1,
 * C5), error codes (§10, X1/X2) and relation names (§8.1). A receiver never
 * rejects an unknown value in any of them (U2); a vendor value is namespaced
 * `vendor:name` (U3).
 */

import { codeReader, isOneOf } from "../closed-set.js";
import { FRAME_KINDS } from "../frame.js";

/** U3: a namespaced name, `vendor:name` with both sides non-empty. */
export const NAMESPACED_PATTERN: RegExp = /^[^:]+:[^:]+/;

/** U3: whether `name` is namespaced (`vendor:name`, a `:` with non-empty sides). */
export function isNamespaced(name: string): boolean {
  return NAMESPACED_PATTERN.test(name);
}

/** §4.1: the four normative base egress scopes. Everything but `local-only` is off-machine. */
export const EGRESS_SCOPES = [
  "local-only",
  "org-tenant",
  "third-party-index",
  "third-party-model",
] as const;
export type EgressScope = (typeof EGRESS_SCOPES)[number];

/**
 * §4.1: whether content under `scope` leaves the machine. Only `local-only`
 * stays; an unrecognised scope (custom or not) is off-machine, so a host never
 * under-gates.
 */
export function isOffMachineScope(scope: string): boolean {
  return scope !== "local-only";
}

const isBaseScope = isOneOf(EGRESS_SCOPES);

/** §4.1, U3: whether `scope` is well formed — a base scope, or a namespaced custom one (`vendor:name`). */
export function isValidEgressScope(scope: string): boolean {
  return isBaseScope(scope) || isNamespaced(scope);
}

/**
 * C5: whether a declared data flow is consistent — every scope well formed
 * ({@link isValidEgressScope}) and no off-machine scope alongside
 * `egress: false`. A flow without scopes is consistent; `egress: true` with
 * no scopes is the plain boolean contract.
 */
export function scopesConsistent(dataFlow: {
  readonly egress: boolean;
  readonly egress_scopes?: readonly string[] | null;
}): boolean {
  const scopes = dataFlow.egress_scopes ?? [];
  if (!scopes.every(isValidEgressScope)) return false;
  return dataFlow.egress || !scopes.some(isOffMachineScope);
}

/** The off-machine scopes of a data flow, in declaration order, each once (C6 asks a receipt for each). */
export function offMachineScopes(dataFlow: {
  readonly egress_scopes?: readonly string[] | null;
}): string[] {
  return [...new Set((dataFlow.egress_scopes ?? []).filter(isOffMachineScope))];
}

/** §10: the error codes this revision defines, with a host's reaction. */
export const CGP_ERROR_CODES = [
  "bad_request",
  "unsupported_kind",
  "unsupported_representation",
  "incompatible_version",
  "budget_unsatisfiable",
  "unavailable",
  "shutting_down",
  "internal",
] as const;
export type CgpErrorCode = (typeof CGP_ERROR_CODES)[number];

const readCode = codeReader(CGP_ERROR_CODES, "internal");

/**
 * X1/X2: the code a host acts on. A recognised code is itself; an
 * unrecognised code (X1), an absent one (X2) or a non-string reads as
 * `internal` — never as something safe to retry.
 */
export function cgpErrorCode(code: unknown): CgpErrorCode {
  return readCode(code);
}

/**
 * §10: whether a host may retry after an error with `code` (read through
 * {@link cgpErrorCode}): only `unavailable` (retry with backoff). Everything
 * else — including every unknown code — is not retryable.
 */
export function isRetryableCgpCode(code: unknown): boolean {
  return cgpErrorCode(code) === "unavailable";
}

/** §8.1: the published relation names providers converge on (the vocabulary stays open). */
export const CGP_RELATIONS = [
  "code.calls",
  "code.imports",
  "code.defines",
  "code.references",
  "doc.documents",
  "episode.follows",
] as const;

/**
 * §6: the frame kinds of `contextgraph/1`, closed within the major family
 * (U2): the seven kinds of `ocp/1`, one list for both families.
 */
export const CGP_FRAME_KINDS = FRAME_KINDS;
export type CgpFrameKind = (typeof CGP_FRAME_KINDS)[number];

const knownKind = isOneOf(CGP_FRAME_KINDS);

/** U2: whether `kind` is one of this revision's frame kinds (an unknown kind is opaque evidence). */
export function isKnownFrameKind(kind: string): kind is CgpFrameKind {
  return knownKind(kind);
}

/** §6.4: how a frame carries its content. Absent on the wire means `full`. */
export const REPRESENTATIONS = ["full", "compact", "reference"] as const;
export type Representation = (typeof REPRESENTATIONS)[number];

const knownRepresentation = isOneOf(REPRESENTATIONS);

/** Whether `value` is one of this revision's representations. */
export function isRepresentation(value: unknown): value is Representation {
  return knownRepresentation(value);
}

/** §9: a verify verdict. A host reuses a held frame only on `valid` (V3). */
export const VERDICT_STATUSES = ["valid", "stale", "gone", "unknown"] as const;
export type VerdictStatus = (typeof VERDICT_STATUSES)[number];
