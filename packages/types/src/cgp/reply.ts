/**
 * What a host transport of the `contextgraph/1` family makes of a provider's
 * replies: the handshake verdict (H1, H3) and the local error for an `error`
 * envelope (X1/X2). Both transports (stdio and HTTP) judge replies through
 * these, each with its own error factory, so the two read the wire alike.
 */
import type { OcpError, OcpErrorOptions } from "../errors.js";
import { familyOfVersion } from "../family.js";
import { decodeCgpEnvelope } from "./decode.js";
import type { CgpEnvelope } from "./envelope.js";
import { cgpErrorCode } from "./vocabulary.js";

type Ack = Extract<CgpEnvelope, { type: "handshake_ack" }>;

/** A reply to a request of a CGP session: frames, a verdict list or an error. */
export type CgpReplyEnvelope = Extract<CgpEnvelope, { type: "frames" | "verified" | "error" }>;

/** Builds a transport's own typed error for one of the reply failures: its `errorFactory`. */
export type CgpReplyErrorFactory<E extends OcpError> = (
  code: "incompatible_version" | "malformed_reply" | "provider_error",
  message: string,
  options?: OcpErrorOptions,
) => E;

/**
 * Judges the reply to a `contextgraph/1.0-draft` handshake (H1, H3): an ack
 * of our family, or a typed error. An ack of another family (an ocp/1
 * provider answering in its own version) and an `error` whose code is
 * `incompatible_version` are both `incompatible_version`, with the version
 * offered and, when known, the one the provider speaks.
 */
export function checkCgpAck<E extends OcpError>(
  reply: unknown,
  providerId: string,
  makeError: CgpReplyErrorFactory<E>,
): { ok: true; ack: Ack } | { ok: false; error: E } {
  const raw = reply as { type?: unknown; protocol_version?: unknown } | null;
  const offered = "contextgraph/1.0-draft";
  if (raw?.type === "handshake_ack" && typeof raw.protocol_version === "string") {
    if (familyOfVersion(raw.protocol_version) !== "contextgraph/1") {
      return {
        ok: false,
        error: makeError(
          "incompatible_version",
          `provider "${providerId}" speaks ${raw.protocol_version}, not a version of the family of ${offered} (H3)`,
          { details: { ours: offered, theirs: raw.protocol_version } },
        ),
      };
    }
  }
  const decoded = decodeCgpEnvelope(reply);
  if (!decoded.ok) {
    return {
      ok: false,
      error: makeError(
        "malformed_reply",
        `provider "${providerId}" answered the handshake with an invalid envelope: ${decoded.error}`,
      ),
    };
  }
  const envelope = decoded.envelope;
  if (envelope.type === "error")
    return { ok: false, error: cgpRemoteError(envelope, providerId, makeError) };
  if (envelope.type !== "handshake_ack") {
    return {
      ok: false,
      error: makeError(
        "malformed_reply",
        `provider "${providerId}" answered the handshake with "${envelope.type}"`,
        { details: { type: envelope.type } },
      ),
    };
  }
  return { ok: true, ack: envelope };
}

/**
 * The local error for a CGP `error` envelope. X1/X2: an unknown or absent
 * code reads as `internal`; the code a host acts on is `details.code`, the
 * one sent (if any) `details.wireCode`. `incompatible_version` (H3) keeps
 * its name as the local code, so a host can tell a refused family apart.
 */
export function cgpRemoteError<E extends OcpError>(
  envelope: { code?: string | null | undefined; message: string },
  providerId: string,
  makeError: CgpReplyErrorFactory<E>,
): E {
  const code = cgpErrorCode(envelope.code ?? undefined);
  return makeError(
    code === "incompatible_version" ? "incompatible_version" : "provider_error",
    `provider "${providerId}" answered error (${code}): ${envelope.message}`,
    {
      details: {
        code,
        ...(typeof envelope.code === "string" ? { wireCode: envelope.code } : {}),
        message: envelope.message,
      },
    },
  );
}
