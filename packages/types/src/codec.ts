import type { z } from "zod";
import { type Envelope, type EnvelopeInit, EnvelopeSchema } from "./envelope.js";
import { type OcpError, typesError } from "./errors.js";
import { scanJsonText } from "./ijson.js";
import { isJsonObject } from "./json-object.js";
import { omittedListsByType } from "./wire-lists.js";

/** The outcome of decoding: a value, or a typed error. Never a throw. */
export type DecodeResult<T = Envelope> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly error: OcpError<"invalid_json" | "invalid_envelope" | "embedded_newline">;
    };

/** Longest excerpt of offending input quoted in an error message. */
const EXCERPT_CHARS = 80;

function excerpt(text: string): string {
  return text.length <= EXCERPT_CHARS ? text : `${text.slice(0, EXCERPT_CHARS)}…`;
}

/** One line per zod issue, with its JSON path: `result.frames.0.token_cost: …`. */
export function describeIssues(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(root)";
    return `${path}: ${issue.message}`;
  });
  if (error.issues.length > limit) lines.push(`… and ${error.issues.length - limit} more`);
  return lines.join("; ");
}

/**
 * The `type` member of a rejected value, for the error message. Never calls
 * the value's own `toString` (a JSON object may carry one that is not a
 * function): strings are quoted as they are, anything else as JSON.
 */
function describeType(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("type" in value)) return undefined;
  const type = (value as { type: unknown }).type;
  if (typeof type === "string") return type;
  try {
    return JSON.stringify(type) ?? typeof type;
  } catch {
    return typeof type;
  }
}

/**
 * Decodes an already-parsed JSON value as an envelope. Structural decoding,
 * as in the reference: unknown fields are dropped, `null` reads as absent,
 * missing lists and booleans take their defaults, and u32 fields must be
 * integers in [0, 2^32 - 1].
 */
export function decodeEnvelope(value: unknown): DecodeResult {
  const parsed = EnvelopeSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const type = describeType(value);
  return {
    ok: false,
    error: typesError(
      "invalid_envelope",
      `not a valid OCP envelope${type === undefined ? "" : ` of type "${excerpt(type)}"`}: ${describeIssues(parsed.error)}`,
      { details: { type, issues: parsed.error.issues } },
    ),
  };
}

/**
 * Decodes one NDJSON line (a trailing `\n` or `\r\n` is allowed). Any string
 * yields a value or a typed {@link OcpError}: `embedded_newline`,
 * `invalid_json` or `invalid_envelope`.
 */
export function decodeLine(line: string): DecodeResult {
  let text = line;
  if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
  if (text.includes("\n")) {
    return {
      ok: false,
      error: typesError("embedded_newline", "an NDJSON line holds exactly one message"),
    };
  }
  const parsed = parseJsonText(text);
  return parsed.ok ? decodeEnvelope(parsed.value) : parsed;
}

/**
 * Parses JSON text as I-JSON (RFC 7493): not JSON, or an object with two
 * members of one name (which `JSON.parse` would silently collapse to the
 * last), is `invalid_json` naming the problem. Never throws.
 */
export function parseJsonText(
  text: string,
):
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: OcpError<"invalid_json"> } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return {
      ok: false,
      error: typesError("invalid_json", `not JSON: ${excerpt(JSON.stringify(text))}`, { cause }),
    };
  }
  if (typeof value === "object" && value !== null) {
    const problem = scanJsonText(text);
    if (problem?.kind === "duplicate_key") {
      return {
        ok: false,
        error: typesError(
          "invalid_json",
          `duplicate member name "${excerpt(problem.key)}" at ${excerpt(problem.path)} (I-JSON, RFC 7493 §2.3, forbids it)`,
          { details: { duplicateKey: problem.key, path: problem.path } },
        ),
      };
    }
  }
  return { ok: true, value };
}

/** A JSON value, as `toWire` writes it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The empty lists the reference leaves off the wire, per envelope type
 * (`kinds` and `anchors` of a query, `provenance` and `relations` of a
 * frame): the lists marked `omittedWhenEmpty` where the schemas define them,
 * read from `EnvelopeSchema` once, at load. The walk refuses a marked name
 * that occurs elsewhere in its envelope type.
 */
const OMITTED_WHEN_EMPTY = omittedListsByType<Envelope["type"]>(EnvelopeSchema);

/**
 * Copies `value` without its `null` and `undefined` members, recursively (the
 * wire omits absent optionals), and without the empty lists named in `omit`.
 * One pass that builds fresh objects: no `delete`, which would leave the
 * copies in slow dictionary mode for `JSON.stringify`.
 */
export function dropAbsent(value: unknown, omit?: ReadonlySet<string>): Json {
  if (Array.isArray(value)) return value.map((member) => dropAbsent(member, omit));
  if (isJsonObject(value)) {
    const out: Record<string, Json> = {};
    for (const key in value) {
      const member = value[key];
      if (member === null || member === undefined) continue;
      if (omit?.has(key) && Array.isArray(member) && member.length === 0) continue;
      out[key] = dropAbsent(member, omit);
    }
    return out;
  }
  return value as Json;
}

/**
 * The wire form of an envelope, as the Rust reference writes it: fields in
 * declaration order, `type` first; absent optionals omitted (never `null`);
 * empty `kinds`, `anchors`, `provenance` and `relations` omitted.
 *
 * @throws {OcpError} `invalid_value` when `envelope` is not a valid envelope.
 */
export function toWire(envelope: EnvelopeInit): Record<string, Json> {
  const parsed = EnvelopeSchema.safeParse(envelope);
  if (!parsed.success) {
    throw typesError("invalid_value", `cannot encode: ${describeIssues(parsed.error)}`, {
      details: { issues: parsed.error.issues },
    });
  }
  return dropAbsent(parsed.data, OMITTED_WHEN_EMPTY[parsed.data.type]) as Record<string, Json>;
}

/** Serialises an envelope to exactly one NDJSON line, trailing `\n` included. */
export function encodeLine(envelope: EnvelopeInit): string {
  return `${JSON.stringify(toWire(envelope))}\n`;
}

/** Serialises an envelope as one JSON document (an HTTP body): no trailing newline. */
export function encodeJson(envelope: EnvelopeInit): string {
  return JSON.stringify(toWire(envelope));
}
