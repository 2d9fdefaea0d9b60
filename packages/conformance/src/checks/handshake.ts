import {
  type Capabilities,
  isVersionString,
  PROTOCOL_VERSION,
  type ProviderInfo,
  protocolFamily,
  versionsCompatible,
} from "@ocp/types";
import { describeIncoming, excerpt } from "../evidence.js";
import { type CheckResult, fail, type NegotiatedIdentity, pass } from "../report.js";
import type { Incoming } from "../session.js";

/** The version the version-mismatch probe speaks: a family no provider of ours belongs to. */
export const FOREIGN_VERSION = "ocp/99.0";

function describeIdentity(info: ProviderInfo, capabilities: Capabilities, version: string): string {
  const flow = info.data_flow;
  return (
    `provider ${excerpt(info.name)} v${info.version} speaks ${version} — data-flow reads=${flow.reads} ` +
    `writes=${flow.writes} egress=${flow.egress}; kinds=[${capabilities.query.kinds.join(", ")}], ` +
    `correlation=${capabilities.correlation === true}`
  );
}

/**
 * handshake (H1, H2): the reply to our `handshake` is a `handshake_ack` in
 * our major family, naming the provider with a non-empty name and version.
 */
export function judgeHandshake(incoming: Incoming): {
  check: CheckResult;
  identity?: NegotiatedIdentity;
} {
  if (incoming.kind !== "message" || !incoming.decoded.ok) {
    return {
      check: fail(
        "handshake",
        `H1: no handshake_ack for a handshake of ${PROTOCOL_VERSION}: ${describeIncoming(incoming)}`,
      ),
    };
  }
  const envelope = incoming.decoded.value;
  if (envelope.type === "error") {
    return {
      check: fail(
        "handshake",
        `H1: refused a handshake of ${PROTOCOL_VERSION} with error (${envelope.code ?? "no code"}): ${envelope.message}`,
      ),
    };
  }
  if (envelope.type !== "handshake_ack") {
    return {
      check: fail("handshake", `H1: answered a handshake with ${describeIncoming(incoming)}`),
    };
  }
  const identity: NegotiatedIdentity = {
    protocol_version: envelope.protocol_version,
    provider: envelope.provider,
    capabilities: envelope.capabilities,
  };
  const problems: string[] = [];
  if (!versionsCompatible(PROTOCOL_VERSION, envelope.protocol_version)) {
    problems.push(
      `H1: acked protocol_version ${excerpt(envelope.protocol_version)}, not in the family ${protocolFamily(PROTOCOL_VERSION)} of ${PROTOCOL_VERSION}`,
    );
  }
  if (envelope.provider.name.trim() === "") {
    problems.push(`H2: provider.name is empty (${excerpt(envelope.provider.name)})`);
  }
  if (envelope.provider.version.trim() === "") {
    problems.push(`H2: provider.version is empty (${excerpt(envelope.provider.version)})`);
  }
  if (problems.length > 0) return { check: fail("handshake", problems.join("; ")), identity };
  return {
    check: pass(
      "handshake",
      describeIdentity(envelope.provider, envelope.capabilities, envelope.protocol_version),
    ),
    identity,
  };
}

/**
 * version-mismatch (H3): a host speaking another major family gets a named
 * answer, never silence — an `error` envelope, or a `handshake_ack` carrying
 * a real version string so the host names the mismatch itself (what the
 * reference's own providers do).
 */
export function judgeVersionMismatch(incoming: Incoming, foreign: string): CheckResult {
  const asked = `a handshake of ${foreign}`;
  if (incoming.kind === "timeout") {
    return fail(
      "version-mismatch",
      `H3: silent for ${incoming.waitedMs} ms after ${asked} (a mismatch must be a named error, not silence)`,
    );
  }
  if (incoming.kind !== "message" || !incoming.decoded.ok) {
    return fail(
      "version-mismatch",
      `H3: no named answer to ${asked}: ${describeIncoming(incoming)}`,
    );
  }
  const envelope = incoming.decoded.value;
  if (envelope.type === "error") {
    return pass(
      "version-mismatch",
      `answered ${asked} with a named error (${envelope.code ?? "no code"}): ${envelope.message}`,
    );
  }
  if (envelope.type === "handshake_ack" && isVersionString(envelope.protocol_version)) {
    const verdict = versionsCompatible(foreign, envelope.protocol_version)
      ? `claims to speak ${envelope.protocol_version}, in the family of ${foreign}`
      : `acked its own ${envelope.protocol_version}, so the host names the mismatch (${protocolFamily(envelope.protocol_version)} ≠ ${protocolFamily(foreign)}) at once`;
    return pass("version-mismatch", `answered ${asked} at once: ${verdict}`);
  }
  if (envelope.type === "handshake_ack") {
    return fail(
      "version-mismatch",
      `H3: acked ${asked} with protocol_version ${excerpt(envelope.protocol_version)}, which is not a version string`,
    );
  }
  return fail("version-mismatch", `H3: answered ${asked} with ${describeIncoming(incoming)}`);
}
