import { type ErrorFactory, errorFactory } from "@ocp/types";

/**
 * Codes of the errors this package raises (listed in the README). The wire
 * codes a host sees (`unsupported_kind`, `bad_request`, `shutting_down`) are
 * `@ocp/types` wire codes, so a stdio or HTTP host reads them as such.
 */
export const TEAM_CONTEXT_ERROR_CODES = {
  unsupported_kind: "query: none of the asked kinds is one this provider serves",
  bad_request: "query: a limit or option is out of range",
  shutting_down: "query: the provider is shutting down",
  bad_option: "options: a deadline, wait or limit is not a positive whole number",
  too_many_frames: "share: more frames than MAX_SHARED_FRAMES in one call",
} as const;

/** A stable code of a team-context error. */
export type TeamContextErrorCode = keyof typeof TEAM_CONTEXT_ERROR_CODES;

/** Raises a team-context error: only a {@link TeamContextErrorCode} compiles. */
export const teamContextError: ErrorFactory<TeamContextErrorCode> =
  errorFactory<TeamContextErrorCode>();
