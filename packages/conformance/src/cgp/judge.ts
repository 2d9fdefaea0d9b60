import {
  type CgpFrameLike,
  cgpAnswerViolations,
  cgpAsOfViolations,
  cgpFrameViolations,
  familyOfVersion,
  scopesConsistent,
} from "@ocp/types/cgp";
import { excerpt, listOf } from "../evidence.js";
import { type CgpIdentity, type CheckResult, fail, pass, skip } from "../report.js";
import {
  AS_OF_PIN,
  type CgpMessage,
  type CgpQuery,
  describeCgp,
  framesOf,
  type Json,
  namesVersion,
} from "./wire.js";

/** Rules of the CGP rulebook that budget-honesty reports; every other frame rule is frame-validity's. */
export const BUDGET_RULES: ReadonlySet<string> = new Set(["B1", "B2", "B3", "B4", "P4"]);

const ok = (name: Parameters<typeof pass>[0], evidence: string) => pass(name, evidence, "cgp");
const bad = (name: Parameters<typeof fail>[0], evidence: string) => fail(name, evidence, "cgp");
const skipped = (name: Parameters<typeof skip>[0], evidence: string) => skip(name, evidence, "cgp");

export { bad as cgpFail, ok as cgpPass, skipped as cgpSkip };

/** handshake (H1, H2): a `handshake_ack` in contextgraph/1 with a non-empty name and version. */
export function judgeCgpHandshake(message: CgpMessage): {
  check: CheckResult;
  identity?: CgpIdentity;
} {
  if (message.kind !== "message" || message.type !== "handshake_ack") {
    const refused =
      message.kind === "message" &&
      message.type === "error" &&
      (message.raw.code === "incompatible_version" || namesVersion(message.raw.message));
    return {
      check: bad(
        "handshake",
        refused
          ? `H1: the provider refused contextgraph/1.0-draft by name (${describeCgp(message)}); it does not speak CGP (try --family ocp)`
          : `H1: the handshake was answered with ${describeCgp(message)}, not a handshake_ack`,
      ),
    };
  }
  const raw = message.raw;
  const version = typeof raw.protocol_version === "string" ? raw.protocol_version : "";
  const provider = (raw.provider ?? {}) as Json;
  const capabilities = (raw.capabilities ?? {}) as Json;
  const name = typeof provider.name === "string" ? provider.name : "";
  const providerVersion = typeof provider.version === "string" ? provider.version : "";
  const dataFlow = (provider.data_flow ?? {}) as Json;
  const identity: CgpIdentity = {
    protocol_version: version,
    provider: { name, version: providerVersion, data_flow: dataFlow },
    capabilities,
  };
  if (familyOfVersion(version) !== "contextgraph/1") {
    return {
      check: bad(
        "handshake",
        `H1: acked protocol_version ${excerpt(version)}, not in the family contextgraph/1 of contextgraph/1.0-draft`,
      ),
    };
  }
  const empty = [
    name.trim() === "" ? `provider.name is empty (${excerpt(name)})` : undefined,
    providerVersion.trim() === ""
      ? `provider.version is empty (${excerpt(providerVersion)})`
      : undefined,
  ].filter((item): item is string => item !== undefined);
  if (empty.length > 0) return { check: bad("handshake", `H2: ${empty.join("; ")}`), identity };
  if (message.decodeError !== undefined) {
    return {
      check: bad("handshake", `H1: the handshake_ack does not decode: ${message.decodeError}`),
      identity,
    };
  }
  return {
    check: ok(
      "handshake",
      `provider ${excerpt(name)} v${providerVersion} acked ${version}; data-flow reads=${dataFlow.reads === true} writes=${dataFlow.writes === true} egress=${dataFlow.egress === true}`,
    ),
    identity,
  };
}

/** consent-scope (C5): no off-machine egress scope declared alongside `egress: false`. */
export function judgeConsentScope(identity: CgpIdentity): CheckResult {
  const flow = identity.provider.data_flow;
  const scopes = Array.isArray(flow.egress_scopes) ? (flow.egress_scopes as unknown[]) : [];
  const shown = `[${scopes.map((scope) => String(scope)).join(", ")}]`;
  const named = scopes.filter((scope): scope is string => typeof scope === "string");
  if (scopesConsistent({ egress: flow.egress === true, egress_scopes: named })) {
    return ok(
      "consent-scope",
      `declared egress scopes ${shown} are consistent with egress=${flow.egress === true}`,
    );
  }
  return bad(
    "consent-scope",
    `C5: egress scopes ${shown} are inconsistent with egress=${flow.egress === true}: an off-machine scope alongside egress=false`,
  );
}

interface Found {
  readonly rule: string;
  readonly message: string;
  readonly frameId?: string;
}

/** The rulebook on what a provider sent, as sent: a shape it cannot read is a finding, never a throw. */
function safely(judge: () => readonly Found[], frame: Json | undefined): readonly Found[] {
  try {
    return judge();
  } catch (error) {
    const id = typeof frame?.id === "string" ? frame.id : undefined;
    return [
      {
        rule: "shape",
        message: `${id === undefined ? "the answer" : `frame ${excerpt(id)}`} cannot be read as a frame (${(error as Error).message})`,
        ...(id === undefined ? {} : { frameId: id }),
      },
    ];
  }
}

/** Every violation the rulebook finds in one answer: per frame, then per answer (B1, B4). */
export function answerViolations(query: CgpQuery, frames: readonly Json[]): Found[] {
  const seen = new Set<string>();
  const out: Found[] = [];
  const add = (found: readonly Found[]) => {
    for (const violation of found) {
      const key = `${violation.rule}\u0000${violation.frameId ?? ""}\u0000${violation.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(violation);
    }
  };
  // The answer's rules include each frame's; a frame the answer check cannot read is judged alone.
  const readable = frames as unknown as CgpFrameLike[];
  for (const frame of readable) add(safely(() => cgpFrameViolations(frame), frame));
  add(safely(() => cgpAnswerViolations(query, readable), undefined));
  return out;
}

function describe(found: Found): string {
  return `${found.rule}: ${found.message}`;
}

/** frame-validity and budget-honesty from the probe reply, judged by `@ocp/types/cgp`'s rulebook. */
export function judgeCgpProbe(
  reply: CgpMessage,
  query: CgpQuery,
): { frameValidity: CheckResult; budgetHonesty: CheckResult } {
  if (reply.kind !== "message" || reply.type !== "frames") {
    const evidence = `the probe query was not answered with frames: ${describeCgp(reply)}`;
    return {
      frameValidity: bad("frame-validity", evidence),
      budgetHonesty: bad("budget-honesty", evidence),
    };
  }
  const frames = framesOf(reply);
  const found = answerViolations(query, frames);
  const budget = found.filter((violation) => BUDGET_RULES.has(violation.rule));
  const shape = found.filter((violation) => !BUDGET_RULES.has(violation.rule));
  const declared = frames.reduce(
    (sum, frame) => sum + (typeof frame.token_cost === "number" ? frame.token_cost : 0),
    0,
  );
  return {
    frameValidity:
      shape.length === 0
        ? ok(
            "frame-validity",
            frames.length === 0
              ? "0 frames (permitted: nothing relevant to the probe)"
              : `${frames.length} frame(s): scores in [0, 1], titles and citation labels, UTC timestamps, sha256 digests, labelled relations, honest representations`,
          )
        : bad("frame-validity", listOf(shape.map(describe))),
    budgetHonesty:
      budget.length === 0
        ? ok(
            "budget-honesty",
            `${frames.length} frame(s) (max_frames ${query.max_frames}) declare ${declared} tokens within max_tokens ${query.max_tokens}; every token_cost is ceil(utf8 bytes / 4) of its inline content`,
          )
        : bad("budget-honesty", listOf(budget.map(describe))),
  };
}

/**
 * as-of-temporal (SPEC §6.1, one-sided like upstream's): the probe pinned to
 * {@link AS_OF_PIN} returns no frame whose well-formed `valid_from` is after
 * the pin. Fewer frames, or none, never fail it; a malformed timestamp is
 * frame-validity's finding (F4), not this check's.
 */
export function judgeAsOf(reply: CgpMessage): CheckResult {
  if (reply.kind !== "message" || reply.type !== "frames") {
    return bad("as-of-temporal", `the as_of=${AS_OF_PIN} query failed: ${describeCgp(reply)}`);
  }
  const frames = framesOf(reply);
  const dated = frames.filter(
    (frame): frame is Json & { id: string; kind: string } =>
      typeof frame.id === "string" && typeof frame.kind === "string",
  );
  const late = cgpAsOfViolations({ as_of: AS_OF_PIN }, dated);
  if (late.length === 0) {
    return ok(
      "as-of-temporal",
      `as_of=${AS_OF_PIN}: none of the ${frames.length} returned frame(s) is valid only after the pin`,
    );
  }
  return bad(
    "as-of-temporal",
    `§6.1: ${late.length} frame(s) valid only after as_of=${AS_OF_PIN}, content not yet true at the pinned instant: ${listOf(
      late.map((violation) => violation.message),
    )}`,
  );
}
