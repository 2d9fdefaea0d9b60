/**
 * The hub events the dashboard reads: what `OCPHub.observe()` of
 * `@ocp/a2a-ocp-hub` emits, defined once in `@ocp/a2a-ocp-messaging/observe`
 * (types only), below both packages: the hub loads this package as a
 * plug-in, so this package imports nothing from the hub.
 */
import type { HubEvent, HubStats, MessageAcceptedEvent } from "@ocp/a2a-ocp-messaging/observe";

/** What the dashboard needs of a hub: an `OCPHub` is one. */
export type { ObservableHub } from "@ocp/a2a-ocp-messaging/observe";

/** An event of the hub (`HubEvent` of `@ocp/a2a-ocp-messaging/observe`). */
export type DashboardHubEvent = HubEvent;

/** The counters the dashboard samples once a second (`OCPHub.stats()`). */
export type DashboardHubStats = HubStats;

/** A message the hub accepted. */
export type AcceptedEvent = MessageAcceptedEvent;
