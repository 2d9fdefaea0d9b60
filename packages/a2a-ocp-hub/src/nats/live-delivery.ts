/**
 * A delivery taken from an agent's live subject (nats-bus.ts): durable when
 * it carries a sequence number — `Nats-Sequence`, set by the inbox stream
 * that republished it, or `Ocp-Seq` from a hub of an older release —
 * transient otherwise. The hub that receives it forwards its bytes as they
 * are; it does not parse or verify them (the accepting hub checked the
 * message before storing it, and the recipient verifies it, §8.3). This runs
 * for every delivery: the headers are decoded once and each read once.
 */
import type { Msg, MsgHdrs } from "@nats-io/transport-node";
import type { BusDelivery } from "../bus.js";
import type { DeliveryTrace } from "../telemetry.js";
import { PUBLISHED_AT_HEADER, SEQ_HEADER, TRACEPARENT_HEADER } from "./subjects.js";

/** Header of a message the server republished from a stream: its stream sequence. */
const REPUBLISHED_SEQ_HEADER = "Nats-Sequence";

export function liveDelivery(msg: Pick<Msg, "headers" | "data" | "string">): BusDelivery {
  const h = msg.headers;
  if (h !== undefined) {
    const republished = h.get(REPUBLISHED_SEQ_HEADER);
    const seq = digitsOf(republished !== "" ? republished : h.get(SEQ_HEADER));
    if (seq !== undefined) {
      const raw = msg.string();
      const trace = receivedTrace(h);
      return trace === undefined
        ? { kind: "durable", seq, raw }
        : { kind: "durable", seq, raw, trace };
    }
  }
  return { kind: "transient", bytes: Buffer.from(msg.data) };
}

/** What a delivery taken from NATS carries: when it was published, and its trace context. */
function receivedTrace(h: MsgHdrs): DeliveryTrace | undefined {
  const publishedAt = digitsOf(h.get(PUBLISHED_AT_HEADER));
  if (publishedAt === undefined) return undefined;
  const traceparent = h.get(TRACEPARENT_HEADER);
  return traceparent === ""
    ? { at: performance.now(), publishedAt }
    : { at: performance.now(), publishedAt, traceparent };
}

/**
 * A header of 1 to 16 decimal digits as a number; `undefined` for anything
 * else (an absent header reads as ""). The rule of `/^[0-9]{1,16}$/`,
 * without the regular expression.
 */
export function digitsOf(text: string): number | undefined {
  const n = text.length;
  if (n === 0 || n > 16) return undefined;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return Number(text);
}
