/**
 * `ocp-hub --dashboard`: serves `@ocp/a2a-ocp-dashboard` for the running
 * hub. That package is an optional peer of this one: `cli.ts` imports this
 * module only for the flag, so a hub without it never loads it.
 */
import type { Federation } from "./federation/federation.js";
import type { OCPHub } from "./hub.js";

export interface DashboardFlags {
  host: string;
  port: number;
  token?: string | undefined;
  showAllVisibilities: boolean;
  /** The hub's federation (`--federate`): the dashboard adds its Federation view. */
  federation?: Federation | undefined;
}

/** Starts the dashboard; exits 2 with an explanation when the package or the token is missing. */
export async function startCliDashboard(
  hub: OCPHub,
  flags: DashboardFlags,
): Promise<{ url: string; close(): Promise<void> }> {
  let dashboard: typeof import("@ocp/a2a-ocp-dashboard");
  try {
    dashboard = await import("@ocp/a2a-ocp-dashboard");
  } catch (cause) {
    process.stderr.write(
      "ocp-hub: --dashboard needs @ocp/a2a-ocp-dashboard installed beside @ocp/a2a-ocp-hub " +
        `(${cause instanceof Error ? cause.message : String(cause)})\n`,
    );
    process.exit(2);
  }
  try {
    return await dashboard.startDashboard(hub, {
      host: flags.host,
      port: flags.port,
      showAllVisibilities: flags.showAllVisibilities,
      ...(hub.options.defaultVisibility === undefined
        ? {}
        : { defaultVisibility: hub.options.defaultVisibility }),
      ...(flags.token === undefined ? {} : { token: flags.token }),
      ...(flags.federation === undefined ? {} : { federation: flags.federation }),
    });
  } catch (error) {
    process.stderr.write(
      `ocp-hub: --dashboard: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  }
}
