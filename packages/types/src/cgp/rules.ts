/**
 * The rule table of the Context Graph Protocol family (`contextgraph/1`), in
 * the shape of `ocp/1`'s {@link RULES}: for each requirement of SPEC.md (H, C,
 * E, F, D, P, B, G, V, X, R, U, in SPEC order) and each of our extensions
 * after, what a host built on `@ocp/host` does when a provider breaks it and
 * what `ocp-inspect` says about such a provider. A session reads exactly one
 * table, chosen by the family negotiated at the handshake ({@link rulesFor}).
 *
 * The check column names a check of `ocp-inspect --family contextgraph`
 * (provider checks) or of its CGP host harness (`host-…`), exactly those; a
 * rule no wire check judges is `rulebook` (enforced and tested in the export
 * named, e.g. `decodeCgpEnvelope`, `Host.verifyFrames`) or, for a SHOULD
 * nothing can decide, `unchecked`.
 *
 * As in `ocp/1`: a host drops or refuses exactly what the suite fails. Unlike
 * `ocp/1`, B4 (more than `max_frames`) drops the whole answer instead of
 * trimming it, and B3 replaces the tokenizer tolerance of T1 with an exact
 * byte count.
 */
import type { ProtocolFamily } from "../family.js";
import { RULES, type Rule, sameRule } from "../rules.js";
import { CGP_RULES_HANDSHAKE_TO_FRAMES } from "./rules-frames.js";

/** Every rule of `contextgraph/1`, in the specification's order, our extensions after. */
export const CGP_RULES = [
  ...CGP_RULES_HANDSHAKE_TO_FRAMES,
  sameRule("B1"),
  {
    id: "B2",
    source: "spec",
    summary: "the host drops a B1 violator's frames with a loud report, never truncates",
    host: "enforce",
    check: "host-budget-drop",
    suite: "host",
  },
  {
    id: "B3",
    source: "spec",
    summary: "token_cost = ceil(utf8 bytes of content / 4), exactly",
    host: "drop",
    check: "budget-honesty",
    suite: "fail",
  },
  {
    id: "B4",
    source: "spec",
    summary: "at most max_frames frames (the host drops, never trims)",
    host: "drop",
    check: "budget-honesty",
    suite: "fail",
  },
  {
    id: "G1",
    source: "spec",
    summary: "every relation carries a non-empty display_name",
    host: "drop",
    check: "frame-validity",
    suite: "fail",
  },
  {
    id: "G2",
    source: "spec",
    summary: "every relation's target_uri is a non-empty URI",
    host: "drop",
    check: "frame-validity",
    suite: "fail",
  },
  {
    id: "G3",
    source: "spec",
    summary: "SHOULD: a graph provider boosts frames near a query anchor",
    host: "none",
    check: "—",
    suite: "unchecked",
  },
  {
    id: "V1",
    source: "spec",
    summary: "verify carries frame identities only, never bodies",
    host: "enforce",
    check: "verify-honesty",
    suite: "fail",
  },
  {
    id: "V2",
    source: "spec",
    summary: "a provider declaring verify answers verified; a missing verdict reads as unknown",
    host: "enforce",
    check: "verify-honesty",
    suite: "fail",
  },
  {
    id: "V3",
    source: "spec",
    summary: "a held frame is reused only on valid; unknown is never validity",
    host: "enforce",
    check: "Host.verifyFrames",
    suite: "rulebook",
  },
  {
    id: "V4",
    source: "spec",
    summary: "a stale or gone frame's stored copy is never served again",
    host: "enforce",
    check: "Host.verifyFrames",
    suite: "rulebook",
  },
  {
    id: "X1",
    source: "spec",
    summary: "an unrecognised error code reads as internal",
    host: "enforce",
    check: "cgpErrorCode",
    suite: "rulebook",
  },
  {
    id: "X2",
    source: "spec",
    summary: "an absent error code reads as internal",
    host: "enforce",
    check: "cgpErrorCode",
    suite: "rulebook",
  },
  sameRule("R1"),
  sameRule("R2"),
  { ...sameRule("R3"), check: "host-content-quoting" },
  {
    id: "U1",
    source: "spec",
    summary: "unknown members in any object are ignored, never a rejection",
    host: "enforce",
    check: "malformed-input-tolerance",
    suite: "fail",
  },
  {
    id: "U2",
    source: "spec",
    summary:
      "an unknown kind is opaque evidence; unknown rel, code, egress scope values are accepted",
    host: "enforce",
    check: "decodeCgpEnvelope",
    suite: "rulebook",
  },
  {
    id: "U3",
    source: "spec",
    summary: "vendor rel, egress_scope and error code values are namespaced vendor:name",
    host: "none",
    check: "cgpHandshakeViolations",
    suite: "rulebook",
  },
  {
    id: "U4",
    source: "spec",
    summary: "a defined field is never repurposed within contextgraph/1",
    host: "none",
    check: "decodeCgpEnvelope",
    suite: "rulebook",
  },
  {
    id: "X-RESOLVE",
    source: "extension",
    summary:
      "a provider advertising compact or reference sets resolve: true (SPEC §6.4.1, unnumbered)",
    host: "refuse",
    check: "handshake",
    suite: "fail",
  },
  {
    id: "X-ASOF",
    source: "extension",
    summary:
      "with as_of set, no frame's valid_from is after the pin (upstream's as-of-temporal check, §6.1)",
    host: "drop",
    check: "as-of-temporal",
    suite: "fail",
  },
  {
    id: "X-B4-DROP",
    source: "extension",
    summary: "the host drops a B4 violator's whole answer with a loud report, never trims",
    host: "enforce",
    check: "host-frame-limit",
    suite: "host",
  },
  {
    id: "X-F5-BYTES",
    source: "extension",
    summary: "a file provenance digest under a trusted root must match the bytes on disk",
    host: "enforce",
    check: "host-provenance-bytes",
    suite: "host",
  },
  {
    id: "S1",
    source: "extension",
    summary: "every message validates against the contextgraph interop schema",
    host: "refuse",
    check: "handshake",
    suite: "fail",
  },
  { ...sameRule("K1"), check: "Host.queryAll", suite: "rulebook" },
  { ...sameRule("X-ISO"), check: "Host.queryAll", suite: "rulebook" },
] as const satisfies readonly Rule[];

export type CgpRuleId = (typeof CGP_RULES)[number]["id"];

/** The rule of an id, in the `contextgraph/1` table. */
export function cgpRuleOf(id: CgpRuleId): Rule {
  return CGP_RULES.find((rule) => rule.id === id)!;
}

/** The rule table of a family: `RULES` for `ocp/1`, `CGP_RULES` for `contextgraph/1`. */
export function rulesFor(family: ProtocolFamily): readonly Rule[] {
  return family === "contextgraph/1" ? CGP_RULES : RULES;
}
