import type { HubEvent, HubStats, OCPHub } from "@ocp/a2a-ocp-hub";
import { describe, expectTypeOf, it } from "vitest";
import type { DashboardHubEvent, DashboardHubStats, ObservableHub } from "../src/events.js";

// The dashboard declares what it reads of a hub structurally (the hub loads the dashboard,
// so the dashboard needs nothing from the hub at run time or in its published types). These
// assertions hold that declaration to the hub's own types: `pnpm typecheck` fails when the
// hub adds an event kind, renames a member or changes a type the dashboard reads.
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
