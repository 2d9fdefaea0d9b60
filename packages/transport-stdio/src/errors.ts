import { type ErrorFactory, errorFactory, type OcpError } from "@ocp/types";

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

/** Raises a stdio transport error: only a {@link StdioErrorCode} compiles. */
export const stdioError: ErrorFactory<StdioErrorCode> = errorFactory<StdioErrorCode>();

/** The local error for an `error` envelope: one mapping for every transport. */
export { fromErrorEnvelope } from "@ocp/types";
