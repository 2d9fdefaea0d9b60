import { type ContextQuery, EXTENSIONS, EXTENSIONS_HEADER, PROTOCOL_VERSION } from "@ocp/types";
import { checkCorrelation } from "./checks/correlation.js";
import { judgeKinds, judgeMaxFrames, MAX_FRAMES_PROBE, pickKind } from "./checks/filters.js";
import { judgeProbe } from "./checks/frames.js";
import { FOREIGN_VERSION, judgeHandshake, judgeVersionMismatch } from "./checks/handshake.js";
import { afterShutdownHttp, checkMalformedHttp } from "./checks/http-errors.js";
import { checkMalformed } from "./checks/malformed.js";
import { judgeSchema } from "./checks/schema.js";
import { PROBE_MAX_TOKENS } from "./limits.js";
import { ask, describeReply, type Reply } from "./probe.js";
import {
  CHECK_SPECS,
  type CheckName,
  type CheckResult,
  type ConformanceReport,
  type FrameSummary,
  fail,
  isConformant,
  type NegotiatedIdentity,
  type ProbeSummary,
  skip,
} from "./report.js";
import {
  type Bounds,
  deferred,
  probeTokens,
  type RunOptions,
  resolveBounds,
  sampleQuery,
  sessionPool,
  timedShutdown,
} from "./run-kit.js";
import type { Recorded, Session } from "./session.js";
import {
  describeTarget,
  type HttpTarget,
  openSession,
  type Target,
  transportOf,
} from "./targets.js";

export type { RunOptions } from "./run-kit.js";

/** The probe query: the Rust reference's sample query (4096 tokens, 8 frames, any kind). */
export function probeQuery(goal?: string, maxTokens: number = PROBE_MAX_TOKENS): ContextQuery {
  return sampleQuery(goal, maxTokens);
}

type Found = Partial<Record<CheckName, CheckResult>>;

/** What runs around the main connection's shutdown (HTTP: one server serves every connection). */
interface ShutdownHooks {
  /** Runs after the main queries, before the shutdown (HTTP: the malformed requests). */
  readonly beforeShutdown?: () => Promise<void>;
  /** Runs once the shutdown was acknowledged; what is wrong with the aftermath, if anything. */
  readonly afterShutdown?: () => Promise<string | undefined>;
}

/**
 * Runs every provider check against `target` and returns a typed report.
 * Never throws for anything the provider does: every failure mode is a
 * failing check with evidence, and every wait is bounded (see `limits.ts`).
 * Up to three connections run concurrently: the main one (handshake,
 * queries, shutdown), a foreign-family handshake, and (stdio) the
 * malformed-input probe.
 */
export async function runConformance(
  target: Target,
  options: RunOptions = {},
): Promise<ConformanceReport> {
  const bounds = resolveBounds(options);
  const strict = options.strict === true;
  const transport = transportOf(target);
  const query = probeQuery(options.goal, probeTokens(options));
  const records: Recorded[] = [];
  const record = (entry: Recorded) => records.push(entry);
  const pool = sessionPool(target, record);
  const open = pool.open;
  const { promise: probe, settle: settleProbe } = deferred<Reply>();

  const found: Found = {};
  let identity: NegotiatedIdentity | undefined;
  let probeReply: Reply | undefined;
  try {
    const main = async (hooks: ShutdownHooks = {}) => {
      try {
        ({ identity, probe: probeReply } = await runMain(
          open("main"),
          query,
          bounds,
          found,
          settleProbe,
          hooks,
        ));
      } finally {
        settleProbe({
          kind: "broken",
          evidence: "the main connection ended",
          incoming: { kind: "timeout", waitedMs: 0 },
        });
      }
    };
    const mismatch = async () => {
      if (transport === "in-process") {
        found["version-mismatch"] = skip(
          "version-mismatch",
          "an in-process provider has no wire handshake; the host checks its protocolVersion (H3)",
        );
        return;
      }
      const session = open("version-mismatch");
      session.send(
        { type: "handshake", protocol_version: FOREIGN_VERSION },
        `handshake of ${FOREIGN_VERSION}`,
      );
      found["version-mismatch"] = judgeVersionMismatch(
        await session.next(bounds.mismatch),
        FOREIGN_VERSION,
      );
      await session.dispose();
    };
    const malformed = async () => {
      if ("url" in target) {
        // Asks for error codes (out of band, as a host does) to check each is bad_request.
        const coded = {
          ...target,
          headers: { ...target.headers, [EXTENSIONS_HEADER]: "error_code" },
        };
        const session = pool.adopt(openSession(coded, "malformed-coded", record));
        found["malformed-input-tolerance"] = await checkMalformedHttp(session, query, {
          handshakeTimeoutMs: bounds.handshake,
          // A refusal needs no work: bounded like a handshake answer.
          answerTimeoutMs: bounds.handshake,
          queryTimeoutMs: bounds.query,
          probe,
        });
        return;
      }
      if (transport !== "stdio") {
        found["malformed-input-tolerance"] = skip(
          "malformed-input-tolerance",
          "wire-level malformed-input probe: applies to stdio and HTTP providers",
        );
        return;
      }
      found["malformed-input-tolerance"] = await checkMalformed(open("malformed"), query, {
        handshakeTimeoutMs: bounds.handshake,
        queryTimeoutMs: bounds.query,
        settleMs: bounds.settle,
        probe,
      });
    };
    if (transport === "http") {
      // One server serves every connection: the foreign handshake goes first, so a
      // provider that crashes later on a query cannot fail it too; the malformed
      // requests go after the main queries (a crash on garbage fails R1 alone)
      // and before the main shutdown (which may stop the server).
      await mismatch();
      // After the shutdown: a fresh connection, unrecorded (S1 judges the protocol, not the aftermath).
      const afterShutdown = () =>
        afterShutdownHttp(
          openSession(target as HttpTarget, "after-shutdown", () => {}),
          bounds.shutdown,
        );
      await main({ beforeShutdown: malformed, afterShutdown });
      if (found["malformed-input-tolerance"] === undefined) await malformed();
    } else {
      await Promise.all([main(), mismatch(), malformed()]);
    }
  } finally {
    await pool.disposeAll();
  }
  const mismatch = found["version-mismatch"];
  if (identity === undefined && found.handshake?.status === "fail" && mismatch?.status === "fail") {
    // It answered neither handshake: one fault, reported once (by handshake).
    found["version-mismatch"] = skip(
      "version-mismatch",
      `the provider did not answer our own handshake either; see handshake (${mismatch.evidence})`,
    );
  }
  found.schema = judgeSchema(records);
  const checks = CHECK_SPECS.map((spec) => found[spec.name] ?? skip(spec.name, "not reached"));
  return {
    target: describeTarget(target),
    transport,
    ...(identity === undefined ? {} : { identity }),
    ...(identity === undefined || probeReply === undefined
      ? {}
      : { probe: summarise(query, probeReply) }),
    strict,
    checks,
    conformant: isConformant(checks, strict),
  };
}

function summarise(query: ContextQuery, reply: Reply): ProbeSummary {
  const frames: FrameSummary[] =
    reply.kind === "frames"
      ? reply.result.frames.map((frame) => ({
          id: frame.id,
          kind: frame.kind,
          title: frame.title,
          score: frame.score,
          token_cost: frame.token_cost,
          ...(typeof frame.citation_label === "string"
            ? { citation_label: frame.citation_label }
            : {}),
        }))
      : [];
  return {
    goal: query.goal,
    max_tokens: query.max_tokens,
    max_frames: query.max_frames,
    outcome: describeReply(reply),
    frames,
    ...(reply.kind === "frames" ? { truncated: reply.result.truncated } : {}),
  };
}

/** The main connection: handshake, probe, filters, correlation, shutdown. */
async function runMain(
  session: Session,
  query: ContextQuery,
  bounds: Bounds,
  found: Found,
  settleProbe: (reply: Reply) => void,
  hooks: ShutdownHooks = {},
): Promise<{ identity?: NegotiatedIdentity; probe?: Reply }> {
  // The main connection asks for our extensions (correlation is checked here);
  // the version-mismatch and malformed-input connections stay plain (S1).
  session.send(
    { type: "handshake", protocol_version: PROTOCOL_VERSION, extensions: [...EXTENSIONS] },
    "handshake",
  );
  const handshake = judgeHandshake(await session.next(bounds.handshake));
  found.handshake = handshake.check;
  const later: CheckName[] = [
    "frame-validity",
    "budget-honesty",
    "cost-truth",
    "kinds-filter",
    "max-frames",
    "correlation",
    "shutdown-clean",
  ];
  if (handshake.check.status !== "pass" || handshake.identity === undefined) {
    for (const name of later) found[name] = skip(name, "no valid handshake; see handshake");
    return handshake.identity === undefined ? {} : { identity: handshake.identity };
  }
  const identity = handshake.identity;

  const reply = await ask(session, query, "probe query", bounds.query);
  settleProbe(reply);
  const verdicts = judgeProbe(reply, query);
  found["frame-validity"] = verdicts.frameValidity;
  found["budget-honesty"] = verdicts.budgetHonesty;
  found["cost-truth"] = verdicts.costTruth;

  let stopped: string | undefined =
    reply.kind === "broken"
      ? `the probe query got no answer (${describeReply(reply)}); see frame-validity`
      : undefined;
  if (reply.kind === "frames" && stopped === undefined) {
    const kind = pickKind(reply.result, identity.capabilities.query.kinds);
    const kinds = await ask(
      session,
      { ...query, kinds: [kind] },
      `query for kinds [${kind}]`,
      bounds.query,
    );
    found["kinds-filter"] = judgeKinds(kinds, kind);
    if (kinds.kind === "broken")
      stopped = `the connection broke on the kinds-filter query; see kinds-filter`;
  } else {
    found["kinds-filter"] = skip(
      "kinds-filter",
      stopped ?? `the probe query got ${describeReply(reply)}; see frame-validity`,
    );
  }
  if (stopped === undefined) {
    const probeCount = reply.kind === "frames" ? reply.result.frames.length : 0;
    const limited = await ask(
      session,
      { ...query, max_frames: MAX_FRAMES_PROBE },
      "query with max_frames 1",
      bounds.query,
    );
    found["max-frames"] = judgeMaxFrames(limited, probeCount);
    if (limited.kind === "broken")
      stopped = "the connection broke on the max-frames query; see max-frames";
  } else {
    found["max-frames"] = skip("max-frames", stopped);
  }
  if (identity.capabilities.correlation !== true) {
    found.correlation = skip(
      "correlation",
      "the provider does not declare capabilities.correlation",
    );
  } else if (stopped !== undefined) {
    found.correlation = skip("correlation", stopped);
  } else {
    const correlated = await checkCorrelation(session, query, bounds.query);
    found.correlation = correlated.check;
  }
  await hooks.beforeShutdown?.();
  const shutdown = await timedShutdown(session, bounds.shutdown);
  found["shutdown-clean"] = shutdown.check;
  if (hooks.afterShutdown !== undefined && shutdown.answered) {
    const wrong = await hooks.afterShutdown();
    if (wrong !== undefined) found["shutdown-clean"] = fail("shutdown-clean", `R2: ${wrong}`);
  }
  return { identity, probe: reply };
}
