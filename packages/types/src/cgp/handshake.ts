/**
 * The handshake half of the rulebook: what a host checks on a
 * `handshake_ack` before it registers a provider, and what `ocp-inspect`'s
 * `handshake` and `consent-scope` checks judge. Same {@link Violation} shape
 * as the frame rules.
 */

import { fingerprintDimensions } from "./formats.js";
import type { CgpCapabilities, CgpProviderInfo } from "./payloads.js";
import { cgpVersionsCompatible } from "./version.js";
import { isOffMachineScope, isValidEgressScope } from "./vocabulary.js";

/** The requirement ids {@link cgpHandshakeViolations} reports (`X-RESOLVE`: our id for SPEC §6.4.1's unnumbered MUST). */
export type CgpHandshakeRule = "H1" | "H2" | "C5" | "X-RESOLVE";

export interface HandshakeViolation {
  readonly rule: CgpHandshakeRule;
  readonly message: string;
  readonly field: string;
}

/** The parts of a decoded `handshake_ack` the handshake rules read. */
export interface CgpAckLike {
  readonly protocol_version: string;
  readonly provider: Pick<CgpProviderInfo, "name" | "version" | "data_flow">;
  readonly capabilities: Pick<CgpCapabilities, "representations" | "resolve">;
}

/**
 * Every handshake rule a `handshake_ack` breaks: H1 its version is in the
 * major family of `offeredVersion` (the host's); H2 `provider.name` and
 * `provider.version` are not empty; C5 every egress scope is well formed
 * (namespaced when custom, U3) and no off-machine scope sits beside
 * `egress: false`; X-RESOLVE a provider advertising `compact` or `reference`
 * sets `resolve: true` (§6.4.1).
 */
export function cgpHandshakeViolations(
  ack: CgpAckLike,
  offeredVersion: string,
): HandshakeViolation[] {
  const out: HandshakeViolation[] = [];
  if (!cgpVersionsCompatible(ack.protocol_version, offeredVersion)) {
    out.push({
      rule: "H1",
      field: "protocol_version",
      message: `provider speaks ${JSON.stringify(ack.protocol_version)}, not the major family of ${offeredVersion}`,
    });
  }
  for (const field of ["name", "version"] as const) {
    if (ack.provider[field].trim() === "") {
      out.push({ rule: "H2", field: `provider.${field}`, message: `provider.${field} is empty` });
    }
  }
  const flow = ack.provider.data_flow;
  (flow.egress_scopes ?? []).forEach((scope, index) => {
    if (!isValidEgressScope(scope)) {
      out.push({
        rule: "C5",
        field: `provider.data_flow.egress_scopes[${index}]`,
        message: `egress scope ${JSON.stringify(scope)} is neither a base scope nor namespaced vendor:name (U3)`,
      });
    } else if (!flow.egress && isOffMachineScope(scope)) {
      out.push({
        rule: "C5",
        field: `provider.data_flow.egress_scopes[${index}]`,
        message: `off-machine egress scope ${JSON.stringify(scope)} declared alongside egress: false`,
      });
    }
  });
  const beyondFull = ack.capabilities.representations.filter((name: string) => name !== "full");
  if (beyondFull.length > 0 && !ack.capabilities.resolve) {
    out.push({
      rule: "X-RESOLVE",
      field: "capabilities.resolve",
      message: `advertises ${beyondFull.join(" and ")} without resolve: true`,
    });
  }
  return out;
}

/**
 * E1, the provider's side: whether a query `embedding` fits the provider's
 * declared fingerprint (its length is the fingerprint's dimension). A
 * provider answers `bad_request` when it does not; a provider without a
 * well-formed fingerprint fits no vector.
 */
export function embeddingFits(
  embedding: readonly number[],
  fingerprint: string | null | undefined,
): boolean {
  if (fingerprint === null || fingerprint === undefined) return false;
  const dimensions = fingerprintDimensions(fingerprint);
  return dimensions !== undefined && embedding.length === dimensions;
}
