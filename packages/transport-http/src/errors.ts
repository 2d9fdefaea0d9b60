import { type ErrorFactory, errorFactory, type OcpError } from "@ocp/types";

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

/** Raises an HTTP transport error: only an {@link HttpErrorCode} compiles. */
export const httpError: ErrorFactory<HttpErrorCode> = errorFactory<HttpErrorCode>();

/** The local error for an `error` envelope: one mapping for every transport. */
export { fromErrorEnvelope } from "@ocp/types";
