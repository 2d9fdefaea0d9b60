// The part of the optional peer @ocp/a2a-ocp-dashboard that cli-dashboard.ts
// uses. The dashboard builds after this package (its tests run a real hub), so
// its own declarations do not exist yet when the hub compiles: this one stands
// in, written with the observer types both packages share, and a test of the
// dashboard (test/events.test.ts) holds it to the dashboard's real signature.
declare module "@ocp/a2a-ocp-dashboard" {
  export function startDashboard(
    hub: import("@ocp/a2a-ocp-messaging/observe").ObservableHub,
    options?: {
      host?: string;
      port?: number;
      token?: string;
      showAllVisibilities?: boolean;
      defaultVisibility?: string;
      federation?: import("@ocp/a2a-ocp-messaging/observe").ObservableFederation;
    },
  ): Promise<{ url: string; close(): Promise<void> }>;
}
