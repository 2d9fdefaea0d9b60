/**
 * Every type the root entry's signatures name is exported from the root
 * (type-only), so a user can name it and the API reference links it.
 * `pnpm typecheck` fails when one of them leaves the root again.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  BudgetKind,
  BudgetSpend,
  BusDelivery,
  ChainVerdict,
  ClusterRouting,
  DeliveryTrace,
  EventNotifier,
  HubMetrics,
  HubMetricsServer,
  HubSelf,
  HubTracing,
  OCPHub,
  OCPHubOptions,
  SharedBudgets,
  SqliteAuditLog,
  SubscriptionTable,
} from "../src/index.js";

describe("the hub's root entry exports the types its signatures name", () => {
  it("OCPHub, its options, cluster routing, deliveries, metrics and the audit log", () => {
    expectTypeOf<OCPHub["self"]>().toEqualTypeOf<HubSelf>();
    expectTypeOf<OCPHub["subscriptions"]>().toEqualTypeOf<SubscriptionTable>();
    expectTypeOf<HubTracing>().toExtend<OCPHubOptions["tracing"]>();
    expectTypeOf<BusDelivery["trace"]>().toEqualTypeOf<DeliveryTrace | undefined>();
    expectTypeOf<
      Parameters<NonNullable<ClusterRouting["shareBudgets"]>>[0]
    >().toEqualTypeOf<SharedBudgets>();
    expectTypeOf<
      Parameters<NonNullable<ClusterRouting["useNotifier"]>>[0]
    >().toEqualTypeOf<EventNotifier>();
    expectTypeOf<ReturnType<SharedBudgets["drain"]>>().toEqualTypeOf<BudgetSpend[]>();
    expectTypeOf<keyof BudgetSpend["spent"]>().toEqualTypeOf<BudgetKind>();
    expectTypeOf<HubMetricsServer["metrics"]>().toEqualTypeOf<HubMetrics>();
    expectTypeOf<ReturnType<SqliteAuditLog["verify"]>>().toExtend<
      ChainVerdict | Promise<ChainVerdict>
    >();
  });
});
