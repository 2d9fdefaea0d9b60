/** A hub for the server tests without one: what the dashboard observes, driven by the test. */
import type { DashboardHubEvent, ObservableHub } from "../src/index.js";

/**
 * An observable hub with nothing connected and all counters at 0: each new
 * observer is first replayed `events` (in a microtask), then sees what the
 * test `emit`s.
 */
export function fakeHub(
  events: readonly DashboardHubEvent[] = [],
): ObservableHub & { emit(event: DashboardHubEvent): void } {
  const listeners = new Set<(event: DashboardHubEvent) => void>();
  return {
    observe(listener) {
      listeners.add(listener);
      if (events.length > 0) {
        queueMicrotask(() => {
          for (const event of events) listener(event);
        });
      }
      return () => listeners.delete(listener);
    },
    stats: () => ({
      connected: 0,
      known: 0,
      accepted: 0,
      rejected: 0,
      delivered: 0,
      committed: 0,
      slowConsumerCloses: 0,
      peakOutboundBytes: 0,
      subscriptions: 0,
      rejectedByCode: {},
      storeConnected: true,
    }),
    connectedAgents: () => [],
    emit: (event) => {
      for (const listener of listeners) listener(event);
    },
  };
}
