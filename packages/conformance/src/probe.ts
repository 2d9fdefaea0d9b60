import {
  type ContextQueryInit,
  type ContextQueryResult,
  readWireErrorCode,
  toWire,
  type WireErrorCode,
} from "@ocp/types";
import { describeIncoming } from "./evidence.js";
import type { Incoming, Session } from "./session.js";

/** A provider's answer to one query, classified. */
export type Reply =
  | { readonly kind: "frames"; readonly result: ContextQueryResult; readonly id?: string }
  | {
      readonly kind: "error";
      readonly code: WireErrorCode;
      readonly message: string;
      readonly id?: string;
    }
  /** No answer: a hang, a crash, a transport failure, a malformed or unexpected message. */
  | { readonly kind: "broken"; readonly evidence: string; readonly incoming: Incoming };

/** Classifies what came back after a query. */
export function classify(incoming: Incoming): Reply {
  if (incoming.kind !== "message" || !incoming.decoded.ok) {
    return { kind: "broken", evidence: describeIncoming(incoming), incoming };
  }
  const envelope = incoming.decoded.value;
  if (envelope.type === "frames") {
    return envelope.id === undefined
      ? { kind: "frames", result: envelope.result }
      : { kind: "frames", result: envelope.result, id: envelope.id };
  }
  if (envelope.type === "error") {
    const base = {
      kind: "error" as const,
      code: readWireErrorCode(envelope.code),
      message: envelope.message,
    };
    return envelope.id === undefined ? base : { ...base, id: envelope.id };
  }
  return { kind: "broken", evidence: `replied with ${describeIncoming(incoming)}`, incoming };
}

/** The wire form of a query envelope (absent optionals omitted, as the reference writes it). */
export function queryEnvelope(query: ContextQueryInit, id?: string): Record<string, unknown> {
  const wire = toWire({ type: "query", query });
  return id === undefined ? wire : { type: "query", id, query: wire.query };
}

/** Sends one query and reads one reply, within `timeoutMs`. */
export async function ask(
  session: Session,
  query: ContextQueryInit,
  context: string,
  timeoutMs: number,
): Promise<Reply> {
  session.send(queryEnvelope(query), context);
  return classify(await session.next(timeoutMs));
}

/** A reply in words, for evidence. */
export function describeReply(reply: Reply): string {
  if (reply.kind === "frames") return `${reply.result.frames.length} frame(s)`;
  if (reply.kind === "error") return `error (${reply.code}): ${reply.message}`;
  return reply.evidence;
}
