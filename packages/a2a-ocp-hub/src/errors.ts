import type { MessagingErrorCode } from "@ocp/a2a-ocp-messaging";
import type { HubErrorCode } from "@ocp/a2a-ocp-messaging/internal";
import { type ErrorFactory, errorFactory } from "@ocp/types";
import type { FederationErrorCode } from "./federation/codes.js";

/**
 * The codes the hub raises: the message layer's (its inbound stages, options,
 * profiles), the hub's own (`HUB_ERROR_CODES`) and federation's
 * (`FEDERATION_ERROR_CODES`); docs/reference.md lists them.
 */
export type HubRaisedCode = HubErrorCode | MessagingErrorCode | FederationErrorCode;

/** Raises a hub error: only a {@link HubRaisedCode} compiles. */
export const hubError: ErrorFactory<HubRaisedCode> = errorFactory<HubRaisedCode>();
