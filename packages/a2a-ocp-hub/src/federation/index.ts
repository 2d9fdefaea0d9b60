/**
 * `@ocp/a2a-ocp-hub/federation`: hub-to-hub federation (`ocp-hub --federate`,
 * docs/federation.md) — the federate file, the `Federation` that links this
 * hub with the peer hubs it lists, and the outbox store it gives the hub.
 */

// What the federation lets an observer see, defined once below the hub and the dashboard.
export type {
  FederationCrossingEvent,
  FederationEvent,
  FederationLinkEvent,
  FederationLinkState,
  FederationListener,
} from "@ocp/a2a-ocp-messaging/observe";
export { FEDERATION_ERROR_CODES, type FederationErrorCode } from "./codes.js";
export {
  FederateFileSchema,
  type FederationConfig,
  type FederationPeer,
  FederationPeerSchema,
  loadFederationConfig,
  parseFederationConfig,
} from "./config.js";
export { Federation, type FederationOptions } from "./federation.js";
export type { FederationBudget } from "./link.js";
export { type FederatedInner, FederatedStore, type OutboxHooks } from "./outbox.js";
export { FederationRegistry, type RemoteAgent, type VouchRefusal } from "./registry.js";
