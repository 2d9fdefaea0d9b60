import type { ContextQueryInit } from "@ocp/types";
import { PROTOCOL_VERSION } from "@ocp/types";
import { describeIncoming, excerpt } from "../evidence.js";
import { ask, type Reply } from "../probe.js";
import { type CheckResult, fail, pass, skip } from "../report.js";
import type { Session } from "../session.js";

/** What the malformed-input probe sends, in order: bad lines and bad requests (R1). */
export const MALFORMED_INPUTS: readonly { what: string; line: string }[] = [
  { what: "not JSON", line: "this is not valid json {{{" },
  { what: "JSON that is not an object", line: "[1,2,3]" },
  { what: "an unknown envelope type", line: '{"type":"no_such_type"}' },
  { what: "a query that fails the schema", line: '{"type":"query","query":{"goal":42}}' },
  {
    what: "an envelope only a provider sends",
    line: '{"type":"frames","result":{"frames":[],"truncated":false}}',
  },
];

export interface MalformedOptions {
  readonly handshakeTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly settleMs: number;
  /** The main connection's answer to the probe query, to attribute a failure of the follow-up query. */
  readonly probe: Promise<Reply>;
}

/**
 * malformed-input-tolerance (R1, stdio): on a fresh connection, after the
 * handshake, the provider gets each of {@link MALFORMED_INPUTS}; it may reply
 * `error` or stay silent, but must not die, and must still answer a valid
 * query afterwards.
 */
export async function checkMalformed(
  session: Session,
  query: ContextQueryInit,
  options: MalformedOptions,
): Promise<CheckResult> {
  const refused = await malformedHandshake(session, options.handshakeTimeoutMs);
  if (refused !== undefined) return refused;
  let errors = 0;
  let silent = 0;
  for (const [index, input] of MALFORMED_INPUTS.entries()) {
    session.send(input.line, `malformed input ${index + 1}`);
    const reaction = await session.next(options.settleMs);
    if (reaction.kind === "exit" || reaction.kind === "failure") {
      return fail(
        "malformed-input-tolerance",
        `R1: ${describeIncoming(reaction)} after malformed input ${index + 1} (${input.what}: ${excerpt(input.line)})`,
      );
    }
    if (reaction.kind === "timeout") silent += 1;
    else errors += 1;
  }
  const survived = `survived ${MALFORMED_INPUTS.length} malformed inputs (${errors} answered, ${silent} silently ignored)`;
  const last = MALFORMED_INPUTS.length;
  const lastInput = MALFORMED_INPUTS[last - 1]!;
  return followUp(session, query, options, survived, (evidence) =>
    fail(
      "malformed-input-tolerance",
      `R1: ${evidence} after malformed input ${last} (${lastInput.what}: ${excerpt(lastInput.line)}), when a valid query followed that a clean connection answered (${errors} answered, ${silent} without a reaction)`,
    ),
  );
}

/**
 * The plain handshake that opens a malformed-input connection (stdio or
 * HTTP): `undefined` once acknowledged, else the check skipped (the
 * handshake check reports the fault).
 */
export async function malformedHandshake(
  session: Session,
  timeoutMs: number,
): Promise<CheckResult | undefined> {
  session.send({ type: "handshake", protocol_version: PROTOCOL_VERSION }, "handshake");
  const ack = await session.next(timeoutMs);
  if (ack.kind === "message" && ack.decoded.ok && ack.decoded.value.type === "handshake_ack")
    return undefined;
  return skip(
    "malformed-input-tolerance",
    `no handshake_ack on the malformed-input connection (${describeIncoming(ack)}); see handshake`,
  );
}

/**
 * The valid query after the malformed inputs (stdio or HTTP): a pass when it
 * is answered, or when it failed as the probe query did on a clean connection
 * (frame-validity reports that); else `broke(evidence)`.
 */
export async function followUp(
  session: Session,
  query: ContextQueryInit,
  options: { readonly queryTimeoutMs: number; readonly probe: Promise<Reply> },
  survived: string,
  broke: (evidence: string) => CheckResult,
): Promise<CheckResult> {
  const reply = await ask(session, query, "query after malformed input", options.queryTimeoutMs);
  if (reply.kind !== "broken") {
    return pass("malformed-input-tolerance", `${survived} and still answered a valid query`);
  }
  const probe = await options.probe;
  if (probe.kind === "broken") {
    return pass(
      "malformed-input-tolerance",
      `${survived}; the follow-up query failed as the probe query did on a clean connection (${reply.evidence}), which frame-validity reports`,
    );
  }
  return broke(reply.evidence);
}
