/**
 * W3C Trace Context (`traceparent`) beside the signed messages, never inside
 * them: the signature covers the message text, so a trace context travels
 * in the hub frame around it, and only between peers that asked for it.
 *
 * - An agent that announces `ocpTrace: true` (and whose hub confirms it with
 *   `ocpTrace: true` in `ocp.connection.registered`) may send a message as
 *   `{"protocol":"a2a+ocp","type":"ocp.hub.send","traceparent":"…","message":RAW}`.
 * - Such an agent's durable deliveries may carry it too:
 *   `{"protocol":"a2a+ocp","type":"ocp.hub.deliver","seq":N,"traceparent":"…","message":RAW}`.
 *
 * RAW is the sender's exact text in both, spliced in, never re-serialised.
 * A `traceparent` that is not well formed is ignored (the message is handled
 * as if it came bare); one longer than {@link TRACEPARENT_MAX_CHARS} makes
 * the frame invalid. This module only reads and writes the text: spans are
 * the business of the packages that emit them (`@opentelemetry/api`).
 */
import { DELIVER_PREFIX } from "./hub-protocol.js";
import { TRACEPARENT_MAX_CHARS } from "./limits.js";
import { PROTOCOL } from "./version.js";

/** The text an agent's traced message frame starts with, before its `traceparent` string. */
export const TRACED_SEND_PREFIX = `{"protocol":"${PROTOCOL}","type":"ocp.hub.send","traceparent":`;
const MESSAGE_KEY = `,"message":`;

/** A parsed `traceparent`: the fields of an OpenTelemetry span context. */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  spanId: string;
  /** The flags byte (bit 0: sampled). */
  traceFlags: number;
}

const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const LATER_VERSION =
  /^([0-9a-e][0-9a-f]|f[0-9a-e])-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/;

/**
 * Reads a `traceparent` header value; `undefined` when it is not one (bad
 * shape, version `ff`, an all-zero id, too long). A later version is read
 * by its first four fields, as the W3C recommendation asks.
 */
export function parseTraceparent(text: string): TraceParent | undefined {
  if (text.length > TRACEPARENT_MAX_CHARS) return undefined;
  const match = VERSION_00.exec(text) ?? (text.startsWith("00") ? null : LATER_VERSION.exec(text));
  if (match === null) return undefined;
  const [traceId, spanId, flags] = text.startsWith("00")
    ? [match[1]!, match[2]!, match[3]!]
    : [match[2]!, match[3]!, match[4]!];
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/** The version-`00` `traceparent` of a span context. */
export function formatTraceparent(context: TraceParent): string {
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, "0");
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** An agent's traced message frame: `raw` spliced in, not re-serialised. */
export function encodeTracedSend(traceparent: string, raw: string): string {
  return `${TRACED_SEND_PREFIX}${JSON.stringify(traceparent)}${MESSAGE_KEY}${raw}}`;
}

/** What {@link parseTracedSend} found. */
export type TracedSend =
  | { raw: string; traceparent: TraceParent | undefined }
  | { invalid: string };

/**
 * Unwraps a traced message frame: the message text and its trace context
 * (`undefined` when the `traceparent` is not well formed: ignored, not
 * refused); `{invalid}` naming why the frame cannot be read; `undefined`
 * when `frame` is not a traced message frame at all.
 */
export function parseTracedSend(frame: string): TracedSend | undefined {
  if (!frame.startsWith(TRACED_SEND_PREFIX)) return undefined;
  const start = TRACED_SEND_PREFIX.length;
  if (frame[start] !== '"') return { invalid: "`traceparent` is not a string" };
  const end = frame.indexOf('"', start + 1);
  const limit = start + 1 + TRACEPARENT_MAX_CHARS;
  if (end < 0 || end > limit) {
    return {
      invalid: `\`traceparent\` is longer than ${TRACEPARENT_MAX_CHARS} characters (TRACEPARENT_MAX_CHARS)`,
    };
  }
  const value = frame.slice(start + 1, end);
  if (!/^[\x20-\x7e]*$/.test(value) || value.includes("\\")) {
    return { invalid: "`traceparent` holds an escape or a character outside printable ASCII" };
  }
  if (!frame.startsWith(MESSAGE_KEY, end + 1) || !frame.endsWith("}")) {
    return { invalid: "an `ocp.hub.send` frame is `traceparent` then `message`, nothing else" };
  }
  const raw = frame.slice(end + 1 + MESSAGE_KEY.length, -1);
  if (!raw.trimStart().startsWith("{")) return { invalid: "`message` is not an object" };
  return { raw, traceparent: parseTraceparent(value) };
}

/** A durable delivery frame with the trace context of the hub's delivery span. */
export function encodeTracedDeliver(seq: number, traceparent: string, raw: string): string {
  return `${DELIVER_PREFIX}${seq},"traceparent":${JSON.stringify(traceparent)}${MESSAGE_KEY}${raw}}`;
}

const SEQ_AND_TRACE = new RegExp(
  `^([0-9]{1,16}),"traceparent":"([\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]{0,${TRACEPARENT_MAX_CHARS}})"$`,
);

/**
 * Splits a delivery frame, traced or not, into its sequence number, the
 * exact message text and its trace context (`undefined` when absent or not
 * well formed); `undefined` when the frame is not a well-formed delivery.
 */
export function parseTracedDeliver(
  frame: string,
): { seq: number; raw: string; traceparent: TraceParent | undefined } | undefined {
  if (!frame.startsWith(DELIVER_PREFIX) || !frame.endsWith("}")) return undefined;
  const at = frame.indexOf(MESSAGE_KEY, DELIVER_PREFIX.length);
  if (at < 0) return undefined;
  const head = frame.slice(DELIVER_PREFIX.length, at);
  const traced = SEQ_AND_TRACE.exec(head);
  const digits = traced === null ? head : traced[1]!;
  if (!/^[0-9]{1,16}$/.test(digits)) return undefined;
  const seq = Number(digits);
  if (!Number.isSafeInteger(seq)) return undefined;
  const traceparent = traced === null ? undefined : parseTraceparent(traced[2]!);
  return { seq, raw: frame.slice(at + MESSAGE_KEY.length, -1), traceparent };
}
