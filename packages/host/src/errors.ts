import { type ErrorFactory, errorFactory, type OcpError } from "@ocp/types";

/**
 * Codes of the {@link OcpError}s this package raises. One table of them, with
 * when each happens, is in the package README.
 */
export type HostErrorCode =
  | "consent_required"
  | "consent_scope_required"
  | "egress_scope_inconsistent"
  | "consent_file_corrupt"
  | "consent_file_too_large"
  | "consent_file_unreadable"
  | "consent_write_failed"
  | "unknown_provider"
  | "duplicate_provider"
  | "too_many_providers"
  | "invalid_provider"
  | "incompatible_version"
  | "invalid_query"
  | "invalid_option"
  | "invalid_response"
  | "provider_violation"
  | "provider_error"
  | "timeout"
  | "aborted"
  | "host_shut_down"
  | "too_many_candidates";

/** An {@link OcpError} with one of this package's codes. */
export type HostError = OcpError<HostErrorCode>;

/** Raises a host error: only a {@link HostErrorCode} compiles. */
export const hostError: ErrorFactory<HostErrorCode> = errorFactory<HostErrorCode>();

/** Checks a positive, finite, integer limit override; 0 never means "unlimited". */
export function checkLimit(name: string, value: number | undefined, max: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    throw hostError("invalid_option", `${name} must be an integer in [1, ${max}], got ${value}`, {
      details: { option: name, value, max },
    });
  }
}
