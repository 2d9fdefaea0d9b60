import { OcpError } from "@ocp/types";

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

/** The local error for an `error` envelope: one mapping for every transport. */
export { fromErrorEnvelope } from "@ocp/types";
