import { CGP_PROTOCOL_VERSION } from "@ocp/types/cgp";
import {
  CGP_CHECK_SPECS,
  type CgpIdentity,
  type CheckName,
  type CheckResult,
  type ConformanceReport,
  isConformant,
} from "../report.js";
import {
  type Bounds,
  deferred,
  probeTokens,
  type RunOptions,
  resolveBounds,
  sessionPool,
  timedShutdown,
} from "../run-kit.js";
import type { Session } from "../session.js";
import { describeTarget, type Target, transportOf } from "../targets.js";
import {
  cgpFail,
  cgpSkip,
  judgeAsOf,
  judgeCgpHandshake,
  judgeCgpProbe,
  judgeConsentScope,
} from "./judge.js";
import {
  checkCgpCorrelation,
  checkCgpMalformed,
  checkCgpVersionMismatch,
  checkEmbeddingFingerprint,
} from "./probes.js";
import { checkVerifyHonesty } from "./verify.js";
import {
  asOfQuery,
  type CgpMessage,
  type CgpQuery,
  cgpProbeQuery,
  cgpQueryEnvelope,
  describeCgp,
  exchange,
} from "./wire.js";

type Found = Partial<Record<CheckName, CheckResult>>;

/**
 * Runs every contextgraph/1 provider check (upstream's ten, and ours that
 * apply) against `target` over stdio or HTTP. Never throws for anything the
 * provider does. Frames are judged by `@ocp/types/cgp`'s rulebook; unknown
 * members, kinds and codes are ignored (U1, U2), never held against it.
 */
export async function runCgpConformance(
  target: Target,
  options: RunOptions = {},
): Promise<ConformanceReport> {
  const bounds = resolveBounds(options);
  const transport = transportOf(target);
  const base = {
    target: describeTarget(target),
    transport,
    family: "contextgraph/1" as const,
    strict: options.strict === true,
  };
  if (transport === "in-process") {
    const checks = CGP_CHECK_SPECS.map((spec) =>
      spec.name === "handshake"
        ? cgpFail(
            "handshake",
            "an in-process ContextProvider speaks ocp/1 only; run a CGP provider over stdio or HTTP",
          )
        : cgpSkip(spec.name, "no CGP handshake; see handshake"),
    );
    return { ...base, checks, conformant: false };
  }
  const query = cgpProbeQuery(options.goal, probeTokens(options));
  const found: Found = {};
  const pool = sessionPool(target, () => {});
  const open = pool.open;
  const { promise: probe, settle: settleProbe } = deferred<CgpMessage>();
  let identity: CgpIdentity | undefined;
  const gone: CgpMessage = {
    kind: "gone",
    evidence: "the main connection ended",
    incoming: { kind: "timeout", waitedMs: 0 },
  };
  try {
    const main = async (beforeShutdown?: () => Promise<void>) => {
      try {
        identity = await runMain(open("main"), query, bounds, found, settleProbe, beforeShutdown);
      } finally {
        settleProbe(gone);
      }
    };
    const mismatch = async () => {
      found["version-mismatch"] = await checkCgpVersionMismatch(
        open("version-mismatch"),
        bounds.mismatch,
      );
    };
    const malformed = async () => {
      found["malformed-input-tolerance"] = await checkCgpMalformed(open("malformed"), query, {
        handshakeTimeoutMs: bounds.handshake,
        queryTimeoutMs: bounds.query,
        settleMs: bounds.settle,
        probe,
      });
    };
    const embedding = async () => {
      found["embedding-fingerprint"] = await checkEmbeddingFingerprint(open("embedding"), query, {
        handshakeTimeoutMs: bounds.handshake,
        queryTimeoutMs: bounds.query,
      });
    };
    if (transport === "http") {
      // One server serves every connection: the probes that need it alive go before the main shutdown.
      await mismatch();
      await embedding();
      await main(malformed);
      if (found["malformed-input-tolerance"] === undefined) await malformed();
    } else {
      await Promise.all([main(), mismatch(), malformed(), embedding()]);
    }
  } finally {
    await pool.disposeAll();
  }
  if (found.handshake?.status === "fail") {
    // A provider that did not complete our handshake: the other connections' findings are its echo.
    for (const name of ["malformed-input-tolerance", "embedding-fingerprint"] as const) {
      if (found[name]?.status !== "pass")
        found[name] = cgpSkip(name, "no valid handshake; see handshake");
    }
    if (identity === undefined && found["version-mismatch"]?.status === "fail") {
      found["version-mismatch"] = cgpSkip(
        "version-mismatch",
        `the provider did not complete our own handshake either; see handshake (${found["version-mismatch"].evidence})`,
      );
    }
  }
  const checks = CGP_CHECK_SPECS.map(
    (spec) => found[spec.name] ?? cgpSkip(spec.name, "not reached"),
  );
  return {
    ...base,
    ...(identity === undefined ? {} : { cgpIdentity: identity }),
    checks,
    conformant: isConformant(checks, base.strict),
  };
}

/** The main connection: handshake, consent-scope, probe, verify, as_of, correlation, shutdown. */
async function runMain(
  session: Session,
  query: CgpQuery,
  bounds: Bounds,
  found: Found,
  settleProbe: (reply: CgpMessage) => void,
  beforeShutdown?: () => Promise<void>,
): Promise<CgpIdentity | undefined> {
  const ack = await exchange(
    session,
    { type: "handshake", protocol_version: CGP_PROTOCOL_VERSION },
    "handshake",
    bounds.handshake,
  );
  const judged = judgeCgpHandshake(ack);
  found.handshake = judged.check;
  const later: CheckName[] = [
    "consent-scope",
    "frame-validity",
    "budget-honesty",
    "verify-honesty",
    "as-of-temporal",
    "correlation",
    "shutdown-clean",
  ];
  if (judged.check.status !== "pass" || judged.identity === undefined) {
    for (const name of later) found[name] = cgpSkip(name, "no valid handshake; see handshake");
    return judged.identity;
  }
  const identity = judged.identity;
  const caps = identity.capabilities;
  const correlation = caps.correlation === true;
  found["consent-scope"] = judgeConsentScope(identity);
  const reply = await exchange(
    session,
    cgpQueryEnvelope(query, correlation ? "ocp-inspect-probe" : undefined),
    "probe query",
    bounds.query,
  );
  settleProbe(reply);
  const verdicts = judgeCgpProbe(reply, query);
  found["frame-validity"] = verdicts.frameValidity;
  found["budget-honesty"] = verdicts.budgetHonesty;
  let stopped =
    reply.kind === "gone"
      ? `the probe query got no answer (${describeCgp(reply)}); see frame-validity`
      : undefined;
  if (stopped === undefined && reply.kind === "message" && reply.type === "frames") {
    const verified = await checkVerifyHonesty(session, reply, {
      declared: caps.verify === true,
      correlation,
      timeoutMs: bounds.query,
    });
    found["verify-honesty"] = verified.check;
    if (verified.broken) stopped = "the connection broke on verify; see verify-honesty";
  } else {
    found["verify-honesty"] = cgpSkip(
      "verify-honesty",
      stopped ?? `the probe query got ${describeCgp(reply)}; see frame-validity`,
    );
  }
  if (stopped === undefined) {
    const pinned = await exchange(
      session,
      cgpQueryEnvelope(asOfQuery(query), correlation ? "ocp-inspect-as-of" : undefined),
      "query pinned with as_of",
      bounds.query,
    );
    found["as-of-temporal"] = judgeAsOf(pinned);
    if (pinned.kind === "gone")
      stopped = "the connection broke on the as_of query; see as-of-temporal";
  } else {
    found["as-of-temporal"] = cgpSkip("as-of-temporal", stopped);
  }
  if (!correlation) {
    found.correlation = cgpSkip(
      "correlation",
      "the provider does not declare capabilities.correlation",
    );
  } else if (stopped !== undefined) {
    found.correlation = cgpSkip("correlation", stopped);
  } else {
    found.correlation = await checkCgpCorrelation(session, query, bounds.query);
  }
  await beforeShutdown?.();
  const { check: shutdown } = await timedShutdown(session, bounds.shutdown);
  found["shutdown-clean"] = { ...shutdown, requirements: ["R2"], advisory: false };
  return identity;
}
