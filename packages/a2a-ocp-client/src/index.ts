/**
 * `@ocp/a2a-ocp-client`: an agent's connection to an a2a+ocp hub. `HubClient`
 * proves the agent's key at registration, signs what it sends, verifies
 * what it receives (signature, freshness, replay, sender's profile),
 * confirms deliveries and resumes where it left off after a reconnect.
 *
 * Every limit is a member of `LIMITS`; the rest is at `./internal`, which
 * semver does not cover.
 */

export type { FindAgentsQuery, FindAgentsResult } from "./discovery.js";
export {
  CONNECTION_FRAMES_SCHEMA_ID,
  connectionFramesJsonSchema,
  HUB_FRAMES_SCHEMA_ID,
  hubFramesJsonSchema,
} from "./frame-schemas.js";
export {
  type DeliveredMessage,
  type DroppedMessage,
  HubClient,
  type HubClientEvents,
  type HubClientOptions,
  type SendReceipt,
} from "./hub-client.js";
/**
 * Every limit of `@ocp/a2a-ocp-client`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export type { HubInfo } from "./negotiation.js";
export type { ClientTracing } from "./tracing.js";
