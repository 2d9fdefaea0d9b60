import type { ContextQueryInit, WireErrorCode } from "@ocp/types";
import { PROTOCOL_VERSION } from "@ocp/types";
import { describeIncoming, excerpt } from "../evidence.js";
import type { Reply } from "../probe.js";
import { type CheckResult, fail } from "../report.js";
import type { Incoming, Session } from "../session.js";
import { followUp, MALFORMED_INPUTS, malformedHandshake } from "./malformed.js";

/**
 * Whether an HTTP answer is a well-formed OCP `error` envelope, refused with
 * a status in `statuses`, whose `code` (when the provider sends one: the
 * suite asks for `error_code`) is one of `codes`. `undefined` when it is;
 * else what is wrong with it.
 */
export function wrongErrorAnswer(
  incoming: Incoming,
  statuses: readonly [number, number],
  codes: readonly WireErrorCode[],
): string | undefined {
  if (incoming.kind !== "message") return describeIncoming(incoming);
  const status = incoming.status ?? 0;
  const named = `HTTP ${status} ${excerpt(incoming.raw)}`;
  if (!incoming.decoded.ok) {
    return `${named}, which is not an OCP envelope (${incoming.decoded.error.message})`;
  }
  const envelope = incoming.decoded.value;
  if (envelope.type !== "error") return `${named}, a "${envelope.type}", not an "error" envelope`;
  if (status < statuses[0] || status > statuses[1]) {
    return `${named}: an error answered with status ${status}, not ${statuses[0]}-${statuses[1]}`;
  }
  if (envelope.code !== undefined && !(codes as readonly string[]).includes(envelope.code)) {
    return `${named}: code "${envelope.code}", not ${codes.map((c) => `"${c}"`).join(" or ")}`;
  }
  return undefined;
}

export interface HttpMalformedOptions {
  readonly handshakeTimeoutMs: number;
  /** Every POST is answered: how long one answer may take. */
  readonly answerTimeoutMs: number;
  readonly queryTimeoutMs: number;
  /** The main connection's answer to the probe query, to attribute a failure of the follow-up query. */
  readonly probe: Promise<Reply>;
}

/**
 * malformed-input-tolerance (R1) over HTTP: each of {@link MALFORMED_INPUTS}
 * is POSTed as a body. Over HTTP every request gets an answer, and the answer
 * to a malformed one is the client's fault, not the server's: a well-formed
 * OCP `error` with a 4xx status and, when it carries a code (the session asks
 * for `error_code`), `bad_request`. A 5xx, a body that is not an OCP error, a
 * dropped connection or no answer fails; so does a provider that no longer
 * answers a valid query afterwards.
 */
export async function checkMalformedHttp(
  session: Session,
  query: ContextQueryInit,
  options: HttpMalformedOptions,
): Promise<CheckResult> {
  const refused = await malformedHandshake(session, options.handshakeTimeoutMs);
  if (refused !== undefined) return refused;
  const statuses = new Set<number>();
  for (const [index, input] of MALFORMED_INPUTS.entries()) {
    session.send(input.line, `malformed input ${index + 1}`);
    const answer = await session.next(options.answerTimeoutMs);
    const wrong = wrongErrorAnswer(answer, [400, 499], ["bad_request"]);
    if (wrong !== undefined) {
      return fail(
        "malformed-input-tolerance",
        `R1: malformed input ${index + 1} (${input.what}: ${excerpt(input.line)}) was answered with ${wrong}; expected a 4xx OCP error (bad_request)`,
      );
    }
    if (answer.kind === "message" && answer.status !== undefined) statuses.add(answer.status);
  }
  const survived = `refused ${MALFORMED_INPUTS.length} malformed requests with well-formed bad_request errors (HTTP ${[...statuses].sort().join(", ")})`;
  return followUp(session, query, options, survived, (evidence) =>
    fail(
      "malformed-input-tolerance",
      `R1: ${evidence} after ${MALFORMED_INPUTS.length} malformed requests, when a valid query followed that a clean connection answered`,
    ),
  );
}

/**
 * shutdown-clean (R2) over HTTP, after the `shutdown` was acknowledged: one
 * more request must find the provider gone (connection refused), still
 * serving (a server many hosts share acknowledges and goes on), or refusing
 * with a well-formed OCP error of code `shutting_down` or `unavailable` (5xx).
 * Undefined when it does; else what is wrong.
 */
export async function afterShutdownHttp(
  session: Session,
  timeoutMs: number,
): Promise<string | undefined> {
  session.send(
    { type: "handshake", protocol_version: PROTOCOL_VERSION },
    "handshake after shutdown",
  );
  const answer = await session.next(timeoutMs);
  await session.dispose();
  if (answer.kind === "failure" || answer.kind === "exit") return undefined;
  if (answer.kind === "timeout") {
    return `a request after shutdown got no answer within ${timeoutMs} ms (neither refused nor answered)`;
  }
  if (answer.decoded.ok && answer.decoded.value.type === "handshake_ack") return undefined;
  const wrong = wrongErrorAnswer(answer, [500, 599], ["shutting_down", "unavailable"]);
  return wrong === undefined ? undefined : `a request after shutdown was answered with ${wrong}`;
}
