import { CGP_PROTOCOL_VERSION, familyOfVersion, fingerprintDimensions } from "@ocp/types/cgp";
import { excerpt, listOf } from "../evidence.js";
import { CORRELATION_PROBES } from "../limits.js";
import type { CheckResult } from "../report.js";
import type { Session } from "../session.js";
import { cgpFail, cgpPass, cgpSkip } from "./judge.js";
import {
  type CgpMessage,
  type CgpQuery,
  cgpQueryEnvelope,
  describeCgp,
  exchange,
  idOf,
  type Json,
  namesVersion,
  readCgp,
} from "./wire.js";

/** The foreign family the version-mismatch probe offers (H3). */
export const CGP_FOREIGN_VERSION = "contextgraph/99.0";

/** version-mismatch (H3, ours): a handshake of another major is refused by a named error, promptly. */
export async function checkCgpVersionMismatch(
  session: Session,
  timeoutMs: number,
): Promise<CheckResult> {
  const reply = await exchange(
    session,
    { type: "handshake", protocol_version: CGP_FOREIGN_VERSION },
    `handshake of ${CGP_FOREIGN_VERSION}`,
    timeoutMs,
  );
  if (reply.kind === "message" && reply.type === "error") {
    const code = reply.raw.code;
    const named = code === "incompatible_version" || namesVersion(reply.raw.message);
    return named
      ? cgpPass("version-mismatch", `refused ${CGP_FOREIGN_VERSION} by name: ${describeCgp(reply)}`)
      : cgpFail(
          "version-mismatch",
          `H3: refused ${CGP_FOREIGN_VERSION} with ${describeCgp(reply)}, which names no version mismatch`,
        );
  }
  if (reply.kind === "message" && reply.type === "handshake_ack") {
    return cgpFail(
      "version-mismatch",
      `H3: acked a handshake of ${CGP_FOREIGN_VERSION} (protocol_version ${excerpt(String(reply.raw.protocol_version))}) instead of refusing it`,
    );
  }
  return cgpFail(
    "version-mismatch",
    `H3: after a handshake of ${CGP_FOREIGN_VERSION}: ${describeCgp(reply)}`,
  );
}

/** Opens a CGP connection: the handshake, and the ack's capabilities when it was one in contextgraph/1. */
async function handshake(session: Session, timeoutMs: number): Promise<Json | string> {
  const ack = await exchange(
    session,
    { type: "handshake", protocol_version: CGP_PROTOCOL_VERSION },
    "handshake",
    timeoutMs,
  );
  if (ack.kind !== "message" || ack.type !== "handshake_ack") return describeCgp(ack);
  if (familyOfVersion(String(ack.raw.protocol_version ?? "")) !== "contextgraph/1") {
    return `an ack of ${excerpt(String(ack.raw.protocol_version))}`;
  }
  return (ack.raw.capabilities ?? {}) as Json;
}

/**
 * correlation (H4, when `capabilities.correlation` is declared):
 * {@link CORRELATION_PROBES} pipelined queries each get exactly one reply
 * echoing its id verbatim.
 */
export async function checkCgpCorrelation(
  session: Session,
  query: CgpQuery,
  timeoutMs: number,
): Promise<CheckResult> {
  const ids = Array.from({ length: CORRELATION_PROBES }, (_, index) => `ocp-inspect-${index + 1}`);
  for (const id of ids) session.send(cgpQueryEnvelope(query, id), `correlated query ${id}`);
  const pending = new Set(ids);
  const problems: string[] = [];
  for (let index = 0; index < ids.length; index += 1) {
    const reply = readCgp(await session.next(timeoutMs));
    if (reply.kind !== "message") {
      return cgpFail(
        "correlation",
        `H4: ${index} of ${ids.length} pipelined queries answered, then ${describeCgp(reply)}`,
      );
    }
    const id = idOf(reply);
    if (id === undefined) problems.push(`reply ${index + 1} (${reply.type}) carries no id`);
    else if (!pending.has(id)) {
      problems.push(
        `reply ${index + 1} (${reply.type}) carries id ${excerpt(id)}, ${ids.includes(id) ? "already answered" : "which no query had"}`,
      );
    } else pending.delete(id);
  }
  if (problems.length > 0) {
    return cgpFail(
      "correlation",
      `H4: declares correlation but ${listOf(problems)} (sent ${ids.join(", ")})`,
    );
  }
  return cgpPass(
    "correlation",
    `${ids.length} pipelined queries (${ids.join(", ")}) each answered once, echoing its id`,
  );
}

/** What the CGP malformed-input probe sends before its valid query (R1, U1). */
export const CGP_MALFORMED_INPUTS: readonly { what: string; line: string }[] = [
  { what: "not JSON", line: "this is not valid json {{{" },
  { what: "JSON that is not an object", line: "[1,2,3]" },
  {
    what: "a request of a type this revision does not define",
    line: '{"type":"x_future_request","id":"ocp-inspect-u1","request":{}}',
  },
];

/** The id of the U1 query that follows the malformed inputs (sent only under `correlation`). */
const FUTURE_QUERY_ID = "ocp-inspect-u1";

/**
 * malformed-input-tolerance (R1, U1): on a fresh connection, after the
 * handshake, the provider gets {@link CGP_MALFORMED_INPUTS} (it may answer
 * `error` or stay silent, never die), then a valid query carrying members no
 * revision defines, which it must answer as if they were absent (U1).
 */
export async function checkCgpMalformed(
  session: Session,
  query: CgpQuery,
  options: {
    readonly handshakeTimeoutMs: number;
    readonly queryTimeoutMs: number;
    readonly settleMs: number;
    readonly probe: Promise<CgpMessage>;
  },
): Promise<CheckResult> {
  const caps = await handshake(session, options.handshakeTimeoutMs);
  if (typeof caps === "string") {
    return cgpSkip(
      "malformed-input-tolerance",
      `no CGP handshake_ack on this connection (${caps}); see handshake`,
    );
  }
  let answered = 0;
  let silent = 0;
  for (const [index, input] of CGP_MALFORMED_INPUTS.entries()) {
    session.send(input.line, `malformed input ${index + 1}`);
    const reaction = readCgp(await session.next(options.settleMs));
    if (reaction.kind === "gone" && reaction.incoming.kind !== "timeout") {
      return cgpFail(
        "malformed-input-tolerance",
        `R1: ${describeCgp(reaction)} after malformed input ${index + 1} (${input.what}: ${excerpt(input.line)})`,
      );
    }
    if (reaction.kind === "gone") silent += 1;
    else answered += 1;
  }
  const survived = `survived ${CGP_MALFORMED_INPUTS.length} malformed inputs (${answered} answered, ${silent} silently ignored)`;
  const correlated = (caps as { correlation?: unknown }).correlation === true;
  const future = {
    type: "query",
    ...(correlated ? { id: FUTURE_QUERY_ID } : {}),
    x_future_envelope_member: { added_in: "contextgraph/1.9" },
    query: { ...query, x_future_query_member: "ignore me" },
  };
  let reply = await exchange(
    session,
    future,
    "query carrying unknown members",
    options.queryTimeoutMs,
  );
  // A loaded provider may answer a malformed input after the settle window: an error
  // that is not ours (not our id) is read past, at most once per input seen as silent.
  for (
    let late = silent;
    late > 0 &&
    reply.kind === "message" &&
    reply.type === "error" &&
    reply.raw.id !== FUTURE_QUERY_ID;
    late -= 1
  ) {
    reply = readCgp(await session.next(options.queryTimeoutMs));
  }
  if (reply.kind === "message" && reply.type === "frames") {
    return cgpPass(
      "malformed-input-tolerance",
      `${survived}, then answered a query carrying unknown members with frames (U1)`,
    );
  }
  if (reply.kind === "message" && reply.type === "error") {
    return cgpFail(
      "malformed-input-tolerance",
      `U1: a valid query carrying unknown members was refused: ${describeCgp(reply)}`,
    );
  }
  const probe = await options.probe;
  if (probe.kind !== "message") {
    return cgpPass(
      "malformed-input-tolerance",
      `${survived}; the follow-up query failed as the probe query did on a clean connection (${describeCgp(reply)}), which frame-validity reports`,
    );
  }
  return cgpFail(
    "malformed-input-tolerance",
    `R1: ${describeCgp(reply)} after the malformed inputs, when a clean connection answered the same query`,
  );
}

/**
 * embedding-fingerprint (E1, as upstream probes it): a provider declaring an
 * `embeddings_fingerprint` refuses a query embedding whose length contradicts
 * its dimension (SHOULD `bad_request`; another code passes with a note). It
 * must not score the vector into frames. Skipped without a fingerprint.
 */
export async function checkEmbeddingFingerprint(
  session: Session,
  query: CgpQuery,
  options: { readonly handshakeTimeoutMs: number; readonly queryTimeoutMs: number },
): Promise<CheckResult> {
  const caps = await handshake(session, options.handshakeTimeoutMs);
  if (typeof caps === "string") {
    return cgpSkip(
      "embedding-fingerprint",
      `no CGP handshake_ack on this connection (${caps}); see handshake`,
    );
  }
  const fingerprint = caps.embeddings_fingerprint;
  if (typeof fingerprint !== "string" || fingerprint === "") {
    return cgpSkip(
      "embedding-fingerprint",
      "the provider declares no embeddings_fingerprint, so E1 has no dimension to contradict",
    );
  }
  const dimensions = fingerprintDimensions(fingerprint);
  if (dimensions === undefined) {
    return cgpSkip(
      "embedding-fingerprint",
      `fingerprint ${excerpt(fingerprint)} names no dimension, so E1 cannot be probed`,
    );
  }
  const wrong = dimensions === 1 ? 2 : 1;
  const id = caps.correlation === true ? "ocp-inspect-e1" : undefined;
  const reply = await exchange(
    session,
    cgpQueryEnvelope({ ...query, embedding: new Array<number>(wrong).fill(0) }, id),
    `query with a ${wrong}-dimension embedding`,
    options.queryTimeoutMs,
  );
  if (reply.kind === "message" && reply.type === "error") {
    const code = reply.raw.code;
    return cgpPass(
      "embedding-fingerprint",
      code === "bad_request"
        ? `declares ${fingerprint} (${dimensions} dimensions) and refused a ${wrong}-dimension embedding with bad_request`
        : `declares ${fingerprint} and refused a ${wrong}-dimension embedding with ${describeCgp(reply)} rather than the bad_request E1 recommends`,
    );
  }
  if (reply.kind === "message" && reply.type === "frames") {
    return cgpFail(
      "embedding-fingerprint",
      `E1: declares ${fingerprint} (${dimensions} dimensions) but scored a ${wrong}-dimension embedding into frames instead of refusing it`,
    );
  }
  return cgpFail(
    "embedding-fingerprint",
    `E1: the probe with a ${wrong}-dimension embedding got ${describeCgp(reply)}`,
  );
}
