import { OcpError, readWireErrorCode } from "@ocp/types";

/** Stable codes of every {@link OcpError} this package raises (see the README table). */
export type StdioErrorCode =
  | "spawn_failed"
  | "incompatible_version"
  | "provider_crashed"
  | "timeout"
  | "malformed_reply"
  | "provider_error"
  | "line_too_long"
  | "aborted"
  | "closed";

/** An error raised by this package. */
export type StdioError = OcpError<StdioErrorCode>;

export function stdioError(
  code: StdioErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): StdioError {
  return new OcpError(code, message, { details, cause });
}

/**
 * The local error for an `error` envelope a provider sent: `provider_error`,
 * or `incompatible_version` when the wire code says so (H3). `details.code`
 * holds the wire code (unknown or absent reads as `internal`).
 */
export function fromErrorEnvelope(
  envelope: { code?: string | undefined; message: string },
  providerId: string,
): StdioError {
  const code = readWireErrorCode(envelope.code);
  const local = code === "incompatible_version" ? "incompatible_version" : "provider_error";
  return stdioError(
    local,
    `provider "${providerId}" answered error (${code}): ${envelope.message}`,
    {
      code,
      message: envelope.message,
    },
  );
}
