import type { MessagingErrorCode } from "@ocp/a2a-ocp-messaging";
import type { HubErrorCode } from "@ocp/a2a-ocp-messaging/internal";
import { type ErrorFactory, errorFactory } from "@ocp/types";

/**
 * The codes the hub raises: the message layer's (its inbound stages, options,
 * profiles) and the hub's own (`HUB_ERROR_CODES`); the README lists them.
 */
export type HubRaisedCode = HubErrorCode | MessagingErrorCode;

/** Raises a hub error: only a {@link HubRaisedCode} compiles. */
export const hubError: ErrorFactory<HubRaisedCode> = errorFactory<HubRaisedCode>();
