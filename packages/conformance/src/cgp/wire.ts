import { decodeCgpLine } from "@ocp/types/cgp";
import { describeExit, excerpt } from "../evidence.js";
import { PROBE_MAX_TOKENS } from "../limits.js";
import { sampleQuery } from "../run-kit.js";

/**
 * The instant the as-of-temporal probe pins its query to (upstream's pin). A
 * frame whose well-formed `valid_from` is after it was not yet true then (§6.1).
 */
export const AS_OF_PIN = "2026-07-01T00:00:00Z";

import type { Incoming, Session } from "../session.js";

/** A loose JSON object: what a CGP peer sent, read by U1 (unknown members are ignored, not refused). */
export type Json = Readonly<Record<string, unknown>>;

/**
 * One message as the contextgraph/1 rulebook reads it. `envelope` is the
 * interop decoding of `@ocp/types/cgp` (unknown members stripped, unknown
 * kinds opaque); `raw` is the parsed JSON as sent, so a rule can still judge
 * a frame the decoder refused (a score of 1.5 is a finding, not a crash).
 */
export type CgpMessage =
  | {
      readonly kind: "message";
      readonly type: string;
      readonly raw: Json;
      readonly envelope?: Json;
      /** Why the interop decoder refused it, when it did. */
      readonly decodeError?: string;
      readonly status?: number;
    }
  | { readonly kind: "not-json"; readonly text: string; readonly status?: number }
  | { readonly kind: "gone"; readonly evidence: string; readonly incoming: Incoming };

/** Reads what a session delivered under the contextgraph/1 rulebook. */
export function readCgp(incoming: Incoming): CgpMessage {
  if (incoming.kind !== "message") {
    return { kind: "gone", evidence: describeGone(incoming), incoming };
  }
  const status = incoming.status === undefined ? {} : { status: incoming.status };
  let parsed: unknown;
  try {
    parsed = JSON.parse(incoming.raw);
  } catch {
    return { kind: "not-json", text: incoming.raw, ...status };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { kind: "not-json", text: incoming.raw, ...status };
  }
  const raw = parsed as Json;
  const type = typeof raw.type === "string" ? raw.type : "(no type)";
  const decoded = decodeCgpLine(incoming.raw);
  if (decoded.ok) {
    return { kind: "message", type, raw, envelope: decoded.envelope as unknown as Json, ...status };
  }
  return { kind: "message", type, raw, decodeError: decoded.error, ...status };
}

/** What happened instead of a message, in words. */
function describeGone(incoming: Incoming): string {
  switch (incoming.kind) {
    case "timeout":
      return `no reply within ${incoming.waitedMs} ms`;
    case "exit": {
      const last = incoming.stderr.trim().split("\n").pop()?.trim() ?? "";
      return `the provider ${describeExit(incoming)}${last === "" ? "" : ` (stderr: ${excerpt(last)})`}`;
    }
    case "failure":
      return `transport failure: ${incoming.message}`;
    default:
      return "a message";
  }
}

/** A message in words, for evidence. */
export function describeCgp(message: CgpMessage): string {
  if (message.kind === "gone") return message.evidence;
  const status = message.status === undefined ? "" : ` (HTTP ${message.status})`;
  if (message.kind === "not-json")
    return `a line that is not a JSON object${status}: ${excerpt(message.text)}`;
  if (message.type === "error") {
    const code = typeof message.raw.code === "string" ? message.raw.code : "no code";
    return `error (${code})${status}: ${excerpt(String(message.raw.message ?? ""))}`;
  }
  if (message.type === "frames") return `${framesOf(message).length} frame(s)${status}`;
  return `a "${message.type}" envelope${status}`;
}

/** The frames of a `frames` reply, as sent (judged by the rulebook, never trusted). */
export function framesOf(message: CgpMessage): Json[] {
  if (message.kind !== "message" || message.type !== "frames") return [];
  const result = message.raw.result as { frames?: unknown } | undefined;
  const frames = result?.frames;
  return Array.isArray(frames)
    ? frames.filter((frame): frame is Json => typeof frame === "object" && frame !== null)
    : [];
}

/** The correlation id a reply carries, if any. */
export function idOf(message: CgpMessage): string | undefined {
  return message.kind === "message" && typeof message.raw.id === "string"
    ? message.raw.id
    : undefined;
}

/** The CGP probe query: upstream's sample query (4096 tokens, 8 frames, any kind). */
export interface CgpQuery {
  readonly goal: string;
  readonly query_text?: string;
  readonly kinds: readonly string[];
  readonly anchors: readonly string[];
  readonly max_frames: number;
  readonly max_tokens: number;
  readonly as_of?: string;
  readonly embedding?: readonly number[];
}

export function cgpProbeQuery(goal?: string, maxTokens: number = PROBE_MAX_TOKENS): CgpQuery {
  return sampleQuery(goal, maxTokens);
}

/** The probe query pinned to {@link AS_OF_PIN}: only the pin varies. */
export function asOfQuery(query: CgpQuery): CgpQuery {
  return { ...query, as_of: AS_OF_PIN };
}

/** A `query` envelope; `id` only for a provider that declared correlation (§3.2). */
export function cgpQueryEnvelope(query: CgpQuery, id?: string): Json {
  return id === undefined ? { type: "query", query } : { type: "query", id, query };
}

/** Sends one envelope and reads one reply under the CGP rulebook. */
export async function exchange(
  session: Session,
  envelope: Json | string,
  context: string,
  timeoutMs: number,
): Promise<CgpMessage> {
  session.send(envelope, context);
  return readCgp(await session.next(timeoutMs));
}

/** Whether an error message names a protocol version (a refusal by name, whatever its code). */
export function namesVersion(message: unknown): boolean {
  return /version|ocp\/\d|contextgraph\/\d/i.test(String(message ?? ""));
}
