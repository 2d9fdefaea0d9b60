import { OcpError, readWireErrorCode } from "@ocp/types";

/** Stable codes of every {@link OcpError} this package raises (see the README table). */
export type HttpErrorCode =
  | "invalid_url"
  | "insecure_url"
  | "incompatible_version"
  | "connection_failed"
  | "timeout"
  | "aborted"
  | "unauthorized"
  | "http_status"
  | "body_too_large"
  | "malformed_reply"
  | "provider_error"
  | "closed";

/** An error raised by this package. Its message and details never hold the bearer token. */
export type HttpError = OcpError<HttpErrorCode>;

export function httpError(
  code: HttpErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): HttpError {
  return new OcpError(code, message, { details, cause });
}

/**
 * The local error for an `error` envelope a provider answered with:
 * `provider_error`, or `incompatible_version` when the wire code says so
 * (H3). `details.code` holds the wire code (unknown or absent reads as
 * `internal`).
 */
export function fromErrorEnvelope(
  envelope: { code?: string | undefined; message: string },
  providerId: string,
): HttpError {
  const code = readWireErrorCode(envelope.code);
  const local = code === "incompatible_version" ? "incompatible_version" : "provider_error";
  return httpError(
    local,
    `provider "${providerId}" answered error (${code}): ${envelope.message}`,
    {
      code,
      message: envelope.message,
    },
  );
}
