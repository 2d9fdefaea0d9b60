// The part of the optional peer @ocp/a2a-ocp-dashboard that cli-dashboard.ts
// uses, for when its types are not built yet (it builds after this package).
declare module "@ocp/a2a-ocp-dashboard" {
  export function startDashboard(
    hub: import("./hub.js").OCPHub,
    options?: {
      host?: string;
      port?: number;
      token?: string;
      showAllVisibilities?: boolean;
      defaultVisibility?: string;
    },
  ): Promise<{ url: string; close(): Promise<void> }>;
}
