import { DIGEST_PATTERN, sha256Digest } from "@ocp/types/cgp";
import { excerpt, listOf } from "../evidence.js";
import { MAX_VERIFY_IDENTITIES } from "../limits.js";
import type { CheckResult } from "../report.js";
import type { Session } from "../session.js";
import { cgpFail, cgpPass, cgpSkip } from "./judge.js";
import { type CgpMessage, describeCgp, exchange, framesOf, type Json } from "./wire.js";

/** The provider id the suite names in `verify` identities (a host-side id, like upstream's). */
export const VERIFY_PROVIDER_ID = "provider-under-test";

const VERDICTS = new Set(["valid", "stale", "gone", "unknown"]);

interface Identity {
  readonly provider_id: string;
  readonly frame_id: string;
  readonly content_digest: string;
}

/** A well-formed digest that differs from `digest`: what a changed source looks like to the provider. */
export function mutatedDigest(digest: string): string {
  return sha256Digest(`${digest} changed under ocp-inspect`);
}

/** Reads the verdicts of a `verified` reply, matched by full identity (§9), never by position. */
function verdictsFor(
  reply: CgpMessage,
  asked: readonly Identity[],
): { statuses: Map<Identity, { status: string; replacement?: unknown }> } | string {
  if (reply.kind !== "message" || reply.type !== "verified") {
    return `V2: verify was answered with ${describeCgp(reply)}, not a verified reply`;
  }
  const response = reply.raw.response as { verdicts?: unknown } | undefined;
  const verdicts = Array.isArray(response?.verdicts) ? (response.verdicts as Json[]) : [];
  const statuses = new Map<Identity, { status: string; replacement?: unknown }>();
  for (const identity of asked) {
    const verdict = verdicts.find((entry) => {
      const frame = (entry?.frame ?? {}) as Json;
      return (
        frame.provider_id === identity.provider_id &&
        frame.frame_id === identity.frame_id &&
        frame.content_digest === identity.content_digest
      );
    });
    // V2: a requested identity with no verdict is `unknown`.
    const status = typeof verdict?.status === "string" ? verdict.status : "unknown";
    statuses.set(identity, { status, replacement: verdict?.replacement_digest });
  }
  return { statuses };
}

/**
 * verify-honesty (V1–V4), as upstream probes it: the frames the provider just
 * served are asked about twice — with their real digests (an honest provider
 * says `valid`), then with well-formed different ones (it says `stale`). A
 * rubber stamp fails the second ask, a hollow `verify` the first. Skipped when
 * `verify` is not declared (the declared fallback) or nothing is verifiable.
 */
export async function checkVerifyHonesty(
  session: Session,
  probe: CgpMessage,
  options: {
    readonly declared: boolean;
    readonly correlation: boolean;
    readonly timeoutMs: number;
  },
): Promise<{ check: CheckResult; broken: boolean }> {
  if (!options.declared) {
    return {
      check: cgpSkip(
        "verify-honesty",
        "the provider does not declare capabilities.verify; a host re-queries instead (§9)",
      ),
      broken: false,
    };
  }
  const held: Identity[] = framesOf(probe)
    .filter(
      (frame) =>
        typeof frame.id === "string" &&
        typeof frame.content_digest === "string" &&
        DIGEST_PATTERN.test(frame.content_digest),
    )
    .slice(0, MAX_VERIFY_IDENTITIES)
    .map((frame) => ({
      provider_id: VERIFY_PROVIDER_ID,
      frame_id: frame.id as string,
      content_digest: frame.content_digest as string,
    }));
  if (held.length === 0) {
    return {
      check: cgpSkip(
        "verify-honesty",
        "the probe served no frame with a well-formed content_digest, so nothing is verifiable (D3, D4)",
      ),
      broken: false,
    };
  }
  const ask = async (frames: readonly Identity[], id: string, context: string) =>
    exchange(
      session,
      options.correlation
        ? { type: "verify", id, request: { frames } }
        : { type: "verify", request: { frames } },
      context,
      options.timeoutMs,
    );
  const first = await ask(held, "ocp-inspect-verify-1", "verify of unchanged digests");
  const unchanged = verdictsFor(first, held);
  if (typeof unchanged === "string") {
    return { check: cgpFail("verify-honesty", unchanged), broken: first.kind === "gone" };
  }
  const notValid = held.filter((identity) => unchanged.statuses.get(identity)?.status !== "valid");
  if (notValid.length > 0) {
    return {
      check: cgpFail(
        "verify-honesty",
        `V2: declares verify but did not answer valid for ${notValid.length} of ${held.length} frame(s) it had just served, digests unchanged: ${listOf(
          notValid.map(
            (identity) =>
              `${excerpt(identity.frame_id)} => ${unchanged.statuses.get(identity)?.status}`,
          ),
        )}`,
      ),
      broken: false,
    };
  }
  const mutated = held.map((identity) => ({
    ...identity,
    content_digest: mutatedDigest(identity.content_digest),
  }));
  const second = await ask(mutated, "ocp-inspect-verify-2", "verify of changed digests");
  const changed = verdictsFor(second, mutated);
  if (typeof changed === "string") {
    return { check: cgpFail("verify-honesty", changed), broken: second.kind === "gone" };
  }
  const problems: string[] = [];
  for (const identity of mutated) {
    const verdict = changed.statuses.get(identity)!;
    if (verdict.status === "valid") {
      problems.push(
        `V3: ${excerpt(identity.frame_id)} => valid for a digest it never served (a rubber stamp)`,
      );
    } else if (verdict.status !== "stale") {
      problems.push(
        `V3: ${excerpt(identity.frame_id)} => ${VERDICTS.has(verdict.status) ? verdict.status : excerpt(verdict.status)}, not stale, for a frame it still serves`,
      );
    } else if (
      verdict.replacement !== undefined &&
      verdict.replacement !== null &&
      (typeof verdict.replacement !== "string" || !DIGEST_PATTERN.test(verdict.replacement))
    ) {
      problems.push(
        `V4: ${excerpt(identity.frame_id)} => stale with a replacement_digest that is not sha256:<64 hex>`,
      );
    }
  }
  if (problems.length > 0) {
    return { check: cgpFail("verify-honesty", listOf(problems)), broken: false };
  }
  return {
    check: cgpPass(
      "verify-honesty",
      `verified ${held.length} unchanged frame(s) valid and all ${held.length} changed digest(s) stale, by identity only`,
    ),
    broken: false,
  };
}
