/**
 * The interop path of the Context Graph Protocol: what a receiver does with a
 * peer's message (SPEC §2.1, §13). Never throws.
 *
 * - U1: unknown members, in any object, are ignored (dropped).
 * - U2: an unknown frame `kind` decodes (the frame is opaque evidence, see
 *   {@link isOpaqueFrame}); unknown `rel`, error `code` and egress scope
 *   values decode.
 * - §2.1: an unknown envelope `type` is not an error: it decodes to a
 *   {@link CgpUnknownEnvelope}, so a provider can answer `bad_request` to a
 *   request it cannot serve and ignore a notification.
 */
import { describeIssues, dropAbsent, type Json, parseJsonText } from "../codec.js";
import { isJsonObject } from "../json-object.js";
import { CGP_ENVELOPE_TYPES, type CgpEnvelope, CgpEnvelopeSchema } from "./envelope.js";
import type { CgpFrame } from "./frame.js";
import { isKnownFrameKind } from "./vocabulary.js";

/** §2.1: an envelope whose `type` this revision does not define. */
export interface CgpUnknownEnvelope {
  readonly type: "unknown";
  /** The `type` the peer sent. */
  readonly wire_type: string;
  /** The correlation id, when the message carried a usable one. */
  readonly id?: string;
  /** Whether it carries members besides `type` and `id` (a payload-bearing request, not a bare notification). */
  readonly has_payload: boolean;
}

/** What a receiver decodes: a known envelope, or an unknown one kept whole. */
export type CgpDecoded = CgpEnvelope | CgpUnknownEnvelope;

export type CgpDecodeFailure = "invalid_json" | "invalid_envelope" | "embedded_newline";

export type CgpDecodeResult =
  | { readonly ok: true; readonly envelope: CgpDecoded }
  | { readonly ok: false; readonly reason: CgpDecodeFailure; readonly error: string };

const KNOWN_TYPES: ReadonlySet<string> = new Set(CGP_ENVELOPE_TYPES);
const EXCERPT_CHARS = 80;

function excerpt(text: string): string {
  return text.length <= EXCERPT_CHARS ? text : `${text.slice(0, EXCERPT_CHARS)}…`;
}

function fail(reason: CgpDecodeFailure, error: string): CgpDecodeResult {
  return { ok: false, reason, error };
}

/**
 * Decodes an already-parsed JSON value as a Context Graph Protocol envelope,
 * interop level. A value that is not an object with a string `type` is
 * `invalid_envelope`; a known `type` with a malformed payload is
 * `invalid_envelope` naming the paths; an unknown `type` is a
 * {@link CgpUnknownEnvelope}.
 */
export function decodeCgpEnvelope(value: unknown): CgpDecodeResult {
  if (!isJsonObject(value)) {
    return fail("invalid_envelope", "not a Context Graph Protocol envelope: not a JSON object");
  }
  const record = value;
  const type = record.type;
  if (typeof type !== "string") {
    return fail(
      "invalid_envelope",
      "not a Context Graph Protocol envelope: no string `type` member",
    );
  }
  if (!KNOWN_TYPES.has(type)) {
    const id = typeof record.id === "string" && record.id !== "" ? record.id : undefined;
    const has_payload = Object.keys(record).some((key) => key !== "type" && key !== "id");
    return {
      ok: true,
      envelope: {
        type: "unknown",
        wire_type: type,
        ...(id === undefined ? {} : { id }),
        has_payload,
      },
    };
  }
  const parsed = CgpEnvelopeSchema.safeParse(value);
  if (parsed.success) return { ok: true, envelope: parsed.data };
  return fail(
    "invalid_envelope",
    `not a valid contextgraph "${excerpt(type)}" envelope: ${describeIssues(parsed.error)}`,
  );
}

/**
 * Decodes one NDJSON line (a trailing `\n` or `\r\n` is allowed): not JSON, or
 * JSON with a duplicated member name (I-JSON), is `invalid_json`; a line
 * holding a newline is `embedded_newline`; otherwise {@link decodeCgpEnvelope}.
 */
export function decodeCgpLine(line: string): CgpDecodeResult {
  let text = line;
  if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
  if (text.includes("\n"))
    return fail("embedded_newline", "an NDJSON line holds exactly one message");
  const parsed = parseJsonText(text);
  return parsed.ok ? decodeCgpEnvelope(parsed.value) : fail("invalid_json", parsed.error.message);
}

/** U2: whether a decoded frame is of a kind this revision does not define (opaque evidence a host may ignore). */
export function isOpaqueFrame(frame: Pick<CgpFrame, "kind">): boolean {
  return !isKnownFrameKind(frame.kind);
}

/** Whether a decoded message is one this revision does not define. */
export function isUnknownEnvelope(envelope: CgpDecoded): envelope is CgpUnknownEnvelope {
  return envelope.type === "unknown";
}

/**
 * The wire form of an envelope: absent optionals omitted (never `null`),
 * `representation: "full"` omitted (absent means full, §6.4). Validates
 * through the interop schema first.
 *
 * @throws {TypeError} naming the paths, when `envelope` is not an envelope.
 */
export function toCgpWire(envelope: unknown): Record<string, Json> {
  const parsed = CgpEnvelopeSchema.safeParse(envelope);
  if (!parsed.success) {
    throw new TypeError(`cannot encode a contextgraph envelope: ${describeIssues(parsed.error)}`);
  }
  const data = parsed.data;
  if (data.type === "frames") {
    const frames = data.result.frames.map((frame) =>
      frame.representation === "full" ? { ...frame, representation: undefined } : frame,
    );
    return dropAbsent({ ...data, result: { ...data.result, frames } }) as Record<string, Json>;
  }
  return dropAbsent(data) as Record<string, Json>;
}

/** One NDJSON line, trailing `\n` included (see {@link toCgpWire}). */
export function encodeCgpLine(envelope: unknown): string {
  return `${JSON.stringify(toCgpWire(envelope))}\n`;
}
