/// <reference path="../../a2a-ocp-hub/src/optional-peers.d.ts" />

// Resolves to the hub's stand-in declaration of this package (the reference above): an ambient
// module declaration wins over the package itself.
import type * as declaredByTheHub from "@ocp/a2a-ocp-dashboard";
import type { HubEvent, HubStats, OCPHub } from "@ocp/a2a-ocp-hub";
import type { Federation, FederationEvent } from "@ocp/a2a-ocp-hub/federation";
import type * as observe from "@ocp/a2a-ocp-messaging/observe";
import { describe, expectTypeOf, it } from "vitest";
import {
  type DashboardFederationEvent,
  type DashboardHubEvent,
  type DashboardOptions,
  startDashboard,
} from "../src/index.js";

// The dashboard reads a hub through the observer types of @ocp/a2a-ocp-messaging/observe, the
// one definition the hub's types are too (the hub loads the dashboard, so the dashboard imports
// nothing from the hub). These assertions run in `pnpm typecheck`, which fails when they break.
type DashboardHub = Parameters<typeof startDashboard>[0];
type DashboardFederation = NonNullable<DashboardOptions["federation"]>;
type Declared = typeof declaredByTheHub.startDashboard;
type DeclaredOptions = NonNullable<Parameters<Declared>[1]>;

describe("the dashboard's view of a hub", () => {
  it("takes an OCPHub as its hub and a hub's Federation as its federation", () => {
    expectTypeOf<OCPHub>().toExtend<DashboardHub>();
    expectTypeOf<Federation>().toExtend<DashboardFederation>();
    expectTypeOf<DashboardHub>().toEqualTypeOf<observe.ObservableHub>();
    expectTypeOf<DashboardFederation>().toEqualTypeOf<observe.ObservableFederation>();
  });

  it("reads the hub's own event and stats types, not copies of them", () => {
    expectTypeOf<HubEvent>().toEqualTypeOf<observe.HubEvent>();
    expectTypeOf<HubStats>().toEqualTypeOf<observe.HubStats>();
    expectTypeOf<ReturnType<OCPHub["stats"]>>().toEqualTypeOf<observe.HubStats>();
    expectTypeOf<FederationEvent>().toEqualTypeOf<observe.FederationEvent>();
    expectTypeOf<DashboardHubEvent>().toEqualTypeOf<observe.HubEvent>();
    expectTypeOf<DashboardFederationEvent>().toEqualTypeOf<observe.FederationEvent>();
  });

  it("is what the hub's stand-in declaration of the plug-in says: the hub's `--dashboard` calls the real one", () => {
    // The real function can stand where the hub's declaration is used ...
    expectTypeOf(startDashboard).toExtend<Declared>();
    // ... it takes exactly the hub the declaration passes, and every option the declaration
    // names is an option of the real function, of the same type.
    expectTypeOf<Parameters<Declared>[0]>().toEqualTypeOf<DashboardHub>();
    expectTypeOf<keyof DeclaredOptions>().toExtend<keyof DashboardOptions>();
    expectTypeOf<DeclaredOptions>().toEqualTypeOf<Pick<DashboardOptions, keyof DeclaredOptions>>();
  });
});
