/**
 * The serving side of one provider under `contextgraph/1`, apart from any
 * transport: reads what a host sent (U1: unknown members ignored; an unknown
 * envelope type or a malformed one is a request it cannot serve, answered
 * `bad_request`), and makes the reply envelopes: `handshake_ack`, `frames`
 * (through {@link cgpAnswer}), `verified` (V1–V4), `error` (X1). Used by
 * `serveStdio` and `createHttpProviderServer` once a host's handshake chose
 * the family.
 */
import { decodeCgpEnvelope, toCgpWire } from "./cgp/decode.js";
import { isWellFormedDigest } from "./cgp/formats.js";
import { type CgpErrorCode, cgpErrorCode, VERDICT_STATUSES } from "./cgp/vocabulary.js";
import { isOcpError } from "./errors.js";
import { CGP_PROTOCOL_VERSION, familyOfVersion, OCP_PROTOCOL_VERSION } from "./family.js";
import {
  type CgpGuardOptions,
  type CgpQueryLike,
  cgpAnswer,
  providerQuery,
  refuseCgpQuery,
} from "./kit-cgp-answer.js";
import {
  type CheckedDeclarations,
  checkDeclarations,
  type DualProvider,
  type FrameIdentity,
  type VerifyAnswer,
} from "./kit-cgp-provider.js";
import { MAX_VERIFY_FRAMES } from "./limits.js";

/** One thing a host sent, as the serving loop acts on it. */
export type CgpRequest =
  | { readonly type: "handshake"; readonly version: string }
  | { readonly type: "query"; readonly id?: string; readonly query: CgpQueryLike }
  | { readonly type: "verify"; readonly id?: string; readonly frames: readonly FrameIdentity[] }
  | { readonly type: "shutdown" }
  /** §2.1: an unrecognised notification (no id, no payload): ignored. */
  | { readonly type: "ignore"; readonly message: string }
  | {
      readonly type: "refuse";
      readonly id?: string;
      readonly code: CgpErrorCode;
      readonly message: string;
    };

/** An envelope the provider sends (plain JSON). */
export type CgpReply = { readonly type: string } & Record<string, unknown>;

/** The `id` of a value that failed to decode, when it has a usable one (so the error can be correlated). */
function idOf(value: unknown): string | undefined {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" && id.length > 0 && id.length <= 128 ? id : undefined;
}

/** The reply for a failure of the served provider: its code when it is a CGP one (X1), else `internal`. */
export function cgpErrorReply(error: unknown, id?: string): CgpReply {
  const code = isOcpError(error) ? cgpErrorCode(error.code) : "internal";
  const message = error instanceof Error && error.message !== "" ? error.message : code;
  return errorEnvelope(code, message, id);
}

function errorEnvelope(code: CgpErrorCode, message: string, id?: string): CgpReply {
  return id === undefined ? { type: "error", code, message } : { type: "error", id, code, message };
}

/**
 * One reply as JSON text (no newline), as `toCgpWire` writes it: through the
 * interop schema (members the family does not define, such as an `ocp/1`
 * capability, left out), absent optionals omitted.
 */
export function encodeCgp(envelope: CgpReply): string {
  return JSON.stringify(toCgpWire(envelope));
}

/**
 * The CGP side of one served provider. Built once per server: its
 * declarations are checked then ({@link checkDeclarations}), so a provider
 * whose egress scopes contradict its data flow (C5) never starts serving.
 */
export class CgpResponder {
  readonly declared: CheckedDeclarations;
  readonly #provider: DualProvider;
  readonly #options: CgpGuardOptions;

  /** @throws {OcpError} `invalid_provider` (see {@link checkDeclarations}). */
  constructor(provider: DualProvider, options: CgpGuardOptions = {}) {
    this.#provider = provider;
    this.declared = checkDeclarations(provider);
    this.#options = { declaredKinds: provider.capabilities.query.kinds, ...options };
  }

  /** What a host sent, as the loop acts on it; never throws. */
  read(value: unknown): CgpRequest {
    const decoded = decodeCgpEnvelope(value);
    if (!decoded.ok) {
      return { type: "refuse", id: idOf(value), code: "bad_request", message: decoded.error };
    }
    const envelope = decoded.envelope;
    switch (envelope.type) {
      case "handshake":
        return { type: "handshake", version: envelope.protocol_version };
      case "query":
        return { type: "query", id: envelope.id, query: envelope.query };
      case "verify":
        return { type: "verify", id: envelope.id, frames: envelope.request.frames };
      case "shutdown":
        return { type: "shutdown" };
      case "unknown":
        if (envelope.id === undefined && !envelope.has_payload) {
          return {
            type: "ignore",
            message: `an unrecognised "${envelope.wire_type}" notification`,
          };
        }
        return {
          type: "refuse",
          id: envelope.id,
          code: "bad_request",
          message: `this provider does not implement "${envelope.wire_type}" envelopes`,
        };
      default:
        return {
          type: "refuse",
          id: idOf(value),
          code: "bad_request",
          message: `a provider does not accept "${envelope.type}" envelopes`,
        };
    }
  }

  /**
   * H1/H3: the reply to a handshake offering `version`: the ack when it is
   * of the `contextgraph/1` family, else `incompatible_version` naming both
   * versions this provider speaks.
   */
  handshake(version: string): CgpReply {
    if (familyOfVersion(version) === "contextgraph/1") return this.ack();
    return errorEnvelope(
      "incompatible_version",
      `this provider speaks ${CGP_PROTOCOL_VERSION} and ${OCP_PROTOCOL_VERSION}, not ${version}`,
    );
  }

  /** H1: the `handshake_ack`, with the CGP declarations (scopes, verify, representations). */
  ack(): CgpReply {
    const info = this.#provider.info;
    const caps = this.#provider.capabilities;
    const declared = this.declared;
    return {
      type: "handshake_ack",
      protocol_version: CGP_PROTOCOL_VERSION,
      provider: {
        name: info.name,
        version: info.version,
        data_flow: {
          reads: info.data_flow.reads,
          writes: info.data_flow.writes,
          egress: info.data_flow.egress,
          egress_scopes: declared.egressScopes.length > 0 ? declared.egressScopes : undefined,
        },
      },
      capabilities: {
        query: { kinds: [...caps.query.kinds] },
        correlation: caps.correlation === true,
        graph: caps.graph,
        embeddings_fingerprint: declared.embeddingsFingerprint,
        verify: declared.verify,
        representations: declared.representations.length > 1 ? declared.representations : undefined,
        resolve: declared.resolve ? true : undefined,
      },
    };
  }

  /** The `frames` (or `error`) for a query; never throws. */
  async query(
    query: CgpQueryLike,
    id: string | undefined,
    signal?: AbortSignal,
  ): Promise<CgpReply> {
    const refusal = refuseCgpQuery(query, this.declared, this.#provider.capabilities.query.kinds);
    if (refusal !== undefined) return errorEnvelope(refusal.code, refusal.message, id);
    try {
      const raw = await this.#provider.query(providerQuery(query), {
        signal,
        family: "contextgraph/1",
      } as Parameters<DualProvider["query"]>[1]);
      const result = cgpAnswer(query, raw, this.declared, this.#options);
      return id === undefined ? { type: "frames", result } : { type: "frames", id, result };
    } catch (error) {
      return cgpErrorReply(error, id);
    }
  }

  /**
   * V1–V4: the `verified` reply, one verdict per identity asked about, each
   * echoing it in full. The provider's answers are matched by frame id and
   * digest; an identity it did not answer, or answered with a status outside
   * the vocabulary, is `unknown` (V2); `valid` or `stale` for an identity
   * without a digest is `unknown` (nothing was compared); a `replacement_digest` rides
   * only on `stale` and only well formed (V4). A provider without `verify`
   * answers `unknown` for every frame: it never blesses what it did not check.
   */
  async verify(
    frames: readonly FrameIdentity[],
    id: string | undefined,
    signal?: AbortSignal,
  ): Promise<CgpReply> {
    if (frames.length > MAX_VERIFY_FRAMES) {
      return errorEnvelope(
        "bad_request",
        `a verify request names at most ${MAX_VERIFY_FRAMES} frames, not ${frames.length}`,
        id,
      );
    }
    let answers: readonly VerifyAnswer[] = [];
    if (this.#provider.verify !== undefined) {
      try {
        answers = await this.#provider.verify(frames, { signal, family: "contextgraph/1" });
      } catch (error) {
        return cgpErrorReply(error, id);
      }
    }
    const envelope = (verdicts: unknown[]): CgpReply =>
      id === undefined
        ? { type: "verified", response: { verdicts } }
        : { type: "verified", id, response: { verdicts } };
    if (this.#options.mode === "off") return envelope([...answers]);
    const key = (frame: FrameIdentity) => `${frame.frame_id}\u0000${frame.content_digest ?? ""}`;
    const byIdentity = new Map<string, VerifyAnswer>();
    for (const answer of Array.isArray(answers) ? answers : []) {
      if (answer?.frame !== undefined) byIdentity.set(key(answer.frame), answer);
    }
    return envelope(
      frames.map((frame) => {
        const answer = byIdentity.get(key(frame));
        let status = (VERDICT_STATUSES as readonly string[]).includes(answer?.status as string)
          ? (answer?.status as string)
          : "unknown";
        // Nothing was presented to compare: neither valid nor stale can be known, gone can.
        if ((status === "valid" || status === "stale") && !frame.content_digest) status = "unknown";
        const echoed = {
          provider_id: frame.provider_id,
          frame_id: frame.frame_id,
          content_digest: frame.content_digest ?? undefined,
        };
        const replacement = answer?.replacement_digest;
        return status === "stale" && isWellFormedDigest(replacement)
          ? { frame: echoed, status, replacement_digest: replacement }
          : { frame: echoed, status };
      }),
    );
  }
}
