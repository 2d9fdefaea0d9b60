import type { HubEvent, HubStats, OCPHub } from "@ocp/a2a-ocp-hub";
import { describe, expectTypeOf, it } from "vitest";
import type { DashboardHubEvent, DashboardHubStats, ObservableHub } from "../src/events.js";

// The dashboard's event and stats types are the hub's own, narrowed to what it reads and
// imported as types only (the hub is an optional peer: nothing of it loads at run time). These
// assertions hold the narrowing to the hub: `pnpm typecheck` fails when the hub adds an event
// kind the dashboard does not take, or an OCPHub stops being an ObservableHub.
describe("the dashboard's view of a hub", () => {
  it("takes every event a hub emits, reads stats a hub gives, and an OCPHub is an ObservableHub", () => {
    expectTypeOf<HubEvent>().toExtend<DashboardHubEvent>();
    expectTypeOf<HubStats>().toExtend<DashboardHubStats>();
    expectTypeOf<OCPHub>().toExtend<ObservableHub>();
    const kinds: Record<HubEvent["kind"], true> = {
      "agent.registered": true,
      "agent.left": true,
      "message.accepted": true,
      "message.refused": true,
    };
    const dashboardKinds: Record<DashboardHubEvent["kind"], true> = kinds;
    expectTypeOf(dashboardKinds).toEqualTypeOf<Record<HubEvent["kind"], true>>();
  });
});
