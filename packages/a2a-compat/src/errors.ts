import { type ErrorFactory, errorFactory } from "@ocp/types";

/** Codes of the errors of the A2A compatibility layer (listed in the package README). */
export const A2A_ERROR_CODES = {
  card_unavailable: "a2a: the agent card could not be located, fetched in time, or parsed",
  no_a2a_equivalent:
    "a2a: the message type has no A2A task equivalent (§9.2), so it cannot fall back",
  a2a_task_failed: "a2a: the A2A agent failed or rejected the task, or could not be reached",
  invalid_reply: "a2a: the A2A reply carries no valid output for the task",
  feature_not_confirmed:
    "negotiation: the peer did not confirm the feature of this message (§7.2); nothing was sent",
  invalid_option: "a2a: an option is missing or out of range (e.g. the deadline a vote needs)",
  negotiation_failed:
    "negotiation: no capability.confirm from the peer in time, or an incompatible version",
} as const;

export type A2AErrorCode = keyof typeof A2A_ERROR_CODES;

/** Raises an A2A compatibility error: only an {@link A2AErrorCode} compiles. */
export const a2aError: ErrorFactory<A2AErrorCode> = errorFactory<A2AErrorCode>();
