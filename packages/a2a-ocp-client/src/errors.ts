import type { MessagingErrorCode } from "@ocp/a2a-ocp-messaging";
import type { HubErrorCode } from "@ocp/a2a-ocp-messaging/internal";
import { type ErrorFactory, errorFactory, foreignError, type OcpError } from "@ocp/types";

/**
 * The codes the client raises itself (`hub_timeout`, `hub_backlog`,
 * `not_connected`, `feature_not_negotiated`, `replay_detected`): the hub
 * protocol's and the message layer's tables.
 */
export type ClientRaisedCode = HubErrorCode | MessagingErrorCode;

/** Raises a client error: only a {@link ClientRaisedCode} compiles. */
export const clientError: ErrorFactory<ClientRaisedCode> = errorFactory<ClientRaisedCode>();

/** The error of an `ocp.hub.reject`: its code is the hub's, read from the wire. */
export function hubRejection(
  code: string,
  message: string,
  details: Record<string, unknown>,
): OcpError<string> {
  return foreignError(code, message, { details });
}
