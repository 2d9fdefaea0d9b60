#!/usr/bin/env node
import { readFileSync } from "node:fs";
/**
 * `ocp-hub`: runs an {@link OCPHub}. Prints the URL it listens on as the
 * first line of stdout (`ws://127.0.0.1:PORT/`), logs to stderr, and shuts
 * down cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from "node:util";
import { nativeEd25519Library } from "@ocp/a2a-ocp-messaging/node";
import { normalizeOrigin } from "@ocp/transport-ws/internal";
import { z } from "zod";
import { SqliteAuditLog } from "./audit-sqlite.js";
import { parseDuration, runAudit } from "./cli-audit.js";
import { readAllowList, readIdentity } from "./cli-files.js";
import { OCPHub } from "./hub.js";
import { HUB_WARMUP_MAX_MESSAGES, HUB_WARMUP_MESSAGES } from "./limits.js";
import { isLoopbackName, startHubMetrics } from "./metrics-server.js";
import { WORKSPACE_PATTERN } from "./nats/subjects.js";
import { DEFAULT_HUB_DB_PATH } from "./options.js";
import { warmUpHub } from "./warmup.js";

/**
 * The NATS cluster code, loaded only for `--nats`: its `@nats-io/*` packages
 * are optional peers of this package, so a single hub never needs them.
 */
async function loadNats(): Promise<typeof import("./nats/connect.js")> {
  try {
    return await import("./nats/connect.js");
  } catch (cause) {
    process.stderr.write(
      "ocp-hub: --nats needs @nats-io/transport-node, @nats-io/jetstream and @nats-io/kv " +
        `installed beside @ocp/a2a-ocp-hub (${cause instanceof Error ? cause.message : String(cause)})\n`,
    );
    process.exit(2);
  }
}

const HELP = `Usage: ocp-hub [options]
       ocp-hub audit [options]   prints the audit log (see ocp-hub audit --help)

Runs an a2a+ocp hub: agents connect over WebSocket (subprotocol a2a-ocp-v1),
announce themselves with a signed profile, and exchange signed messages that
the hub checks, routes and (for durable ones) commits before acknowledging.

Options:
  --host HOST            interface to listen on (default 127.0.0.1, loopback)
  --port PORT            port, 0 for a free one (default 0)
  --db FILE              SQLite file (default ${DEFAULT_HUB_DB_PATH})
  --synchronous MODE     FULL (default) or NORMAL
  --no-verify-forwarded  do not verify signatures of forwarded transient messages
                         (durable ones and subscriptions are always verified)
  --no-rate-limits       disable the per-sender rate limits (§12.3)
  --messages-per-minute N  per-sender message rate limit (default 100)
  --broadcasts-per-minute N  per-sender broadcast rate limit (default 10)
  --nats URL             cluster: share routing and storage with every hub on this
                         NATS server (JetStream on), instead of the SQLite file;
                         several URLs comma-separated
  --workspace NAME       cluster: the workspace (team) on that server (default "default")
  --nats-replicas N      cluster: JetStream replicas of streams and buckets (default 1;
                         3 on a NATS cluster of three servers)
  --nats-ping-interval MS  cluster: ping the NATS server every MS ms (default 1000)
  --nats-max-pings-out N   cluster: pings unanswered before the connection is stale
                         (default 2); the hub then moves to another listed server and,
                         until it has one, refuses durable sends at once with
                         store_failed (resend them)
  --allow FILE           admit only the agents whose signed profiles this JSON file
                         lists ({"profiles": [...]} or an array), id and key both;
                         an agent's team is its entry's ({"profile": ..., "team": T},
                         else the listed profile's team), never the one it announces
  --allow-origin ORIGIN  let browser pages of this origin (https://host[:port]) open
                         a WebSocket; repeatable. Without it, any upgrade that
                         carries an Origin header is refused (HTTP 403)
  --identity FILE        the hub's key, kept across restarts (created with mode 0600
                         when absent; refused when group or others may access it);
                         without it the hub has a new key at every start
  --federate FILE        link with the peer hubs of other organisations this JSON file
                         lists (docs/federation.md); needs --identity (with --nats,
                         one shared by the cluster's hubs, and --db for each hub's
                         federation tables). Without it the hub accepts no hub link
  --warmup N             before listening, carry N signed durable messages through a
                         private in-memory hub of this process (loopback, its two
                         throwaway agents only), so the first agents meet compiled
                         code (default ${HUB_WARMUP_MESSAGES}; 0 skips it)
  --audit-retention D    keep the audit log (in --db) for D: 30s, 10m, 2h, 7d (default 7d)
  --no-audit             keep no audit log (with --nats, one is kept only when --db is given)
  --dashboard            serve the live dashboard (needs @ocp/a2a-ocp-dashboard)
  --dashboard-host HOST  its interface (default 127.0.0.1); anything not loopback
                         needs a token in the OCP_HUB_DASHBOARD_TOKEN variable
  --dashboard-port PORT  its port (default 0, a free one)
  --dashboard-show-all   also show the content of workspace and private knowledge
                         nodes (default: only public and team nodes show content)
  --metrics              serve Prometheus metrics at http://HOST:PORT/metrics
  --metrics-host HOST    its interface (default 127.0.0.1); anything not loopback
                         needs a bearer token in the OCP_HUB_METRICS_TOKEN variable
  --metrics-port PORT    its port (default 0, a free one)
  -h, --help             show this help
  -v, --version          print the version and exit

Who may join: without --allow, registration is OPEN — any agent with a valid
self-signed profile may join, and the first key the hub sees for an agent id is
pinned to it (first come, first pinned, across restarts): whoever registers an
id first owns it, and no agent has a team (team-only knowledge and cards reach
only their author and sharedWith). For a team of known agents, list their
profiles in a file and pass --allow FILE.

Prints the hub's URL on the first line of stdout (the dashboard's and the
metrics' go to stderr).
`;

/**
 * Bad usage: one line naming the problem and a hint, exit 2 (the usage text
 * itself is for `--help`; a screenful on every typo hides the one line that
 * matters).
 */
function usageError(message: string): never {
  const line = message.replace(/\s*\n\s*/g, " ");
  process.stderr.write(`ocp-hub: ${line}\nrun "ocp-hub --help" for usage\n`);
  process.exit(2);
}

const PositiveInt = z.coerce.number().int().positive();
const OptionsSchema = z.object({
  host: z.string().min(1).default("127.0.0.1"),
  port: z.coerce.number().int().min(0).max(65_535).default(0),
  db: z.string().min(1).default(DEFAULT_HUB_DB_PATH),
  synchronous: z.enum(["FULL", "NORMAL"]).default("FULL"),
  "verify-forwarded": z.boolean().default(true),
  "rate-limits": z.boolean().default(true),
  "messages-per-minute": PositiveInt.optional(),
  "broadcasts-per-minute": PositiveInt.optional(),
  help: z.boolean().default(false),
  version: z.boolean().default(false),
  dashboard: z.boolean().default(false),
  "dashboard-host": z.string().min(1).default("127.0.0.1"),
  "dashboard-port": z.coerce.number().int().min(0).max(65_535).default(0),
  "dashboard-show-all": z.boolean().default(false),
  metrics: z.boolean().default(false),
  "metrics-host": z.string().min(1).default("127.0.0.1"),
  "metrics-port": z.coerce.number().int().min(0).max(65_535).default(0),
  allow: z.string().min(1).optional(),
  "allow-origin": z
    .array(
      z.string().refine((text) => {
        try {
          normalizeOrigin(text);
          return true;
        } catch {
          return false;
        }
      }, "--allow-origin takes an origin: https://host[:port]"),
    )
    .default([]),
  identity: z.string().min(1).optional(),
  warmup: z.coerce.number().int().min(0).max(HUB_WARMUP_MAX_MESSAGES).default(HUB_WARMUP_MESSAGES),
  federate: z.string().min(1).optional(),
  audit: z.boolean().default(true),
  "audit-retention": z
    .string()
    .refine((text) => parseDuration(text) !== undefined, "--audit-retention takes 30s, 10m, 2h, 7d")
    .default("7d"),
  nats: z
    .string()
    .regex(/^(nats|tls):\/\/[^\s]+$/, "--nats takes nats://host:port")
    .optional(),
  "nats-replicas": z.coerce.number().int().min(1).max(5).optional(),
  "nats-ping-interval": z.coerce.number().int().min(100).max(600_000).optional(),
  "nats-max-pings-out": z.coerce.number().int().min(1).max(100).optional(),
  workspace: z
    .string()
    .regex(WORKSPACE_PATTERN, "--workspace is letters, digits, - and _")
    .optional(),
});

async function main(): Promise<void> {
  if (process.argv[2] === "audit") return runAudit(process.argv.slice(3));
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: "string" },
        port: { type: "string" },
        db: { type: "string" },
        synchronous: { type: "string" },
        "verify-forwarded": { type: "boolean" },
        "rate-limits": { type: "boolean" },
        "messages-per-minute": { type: "string" },
        "broadcasts-per-minute": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
        dashboard: { type: "boolean" },
        "dashboard-host": { type: "string" },
        "dashboard-port": { type: "string" },
        "dashboard-show-all": { type: "boolean" },
        metrics: { type: "boolean" },
        "metrics-host": { type: "string" },
        "metrics-port": { type: "string" },
        allow: { type: "string" },
        "allow-origin": { type: "string", multiple: true },
        identity: { type: "string" },
        warmup: { type: "string" },
        federate: { type: "string" },
        audit: { type: "boolean" },
        "audit-retention": { type: "string" },
        nats: { type: "string" },
        workspace: { type: "string" },
        "nats-replicas": { type: "string" },
        "nats-ping-interval": { type: "string" },
        "nats-max-pings-out": { type: "string" },
      },
      allowNegative: true,
      strict: true,
    }));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  const parsed = OptionsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path[0];
    const message = issue?.message ?? "bad options";
    usageError(
      typeof flag === "string" && !message.startsWith("--") ? `--${flag}: ${message}` : message,
    );
  }
  const o = parsed.data;
  if (o.help) {
    process.stdout.write(HELP);
    return;
  }
  if (o.version) {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`${(pkg as { version: string }).version}\n`);
    return;
  }
  if (!o.metrics && (values["metrics-host"] ?? values["metrics-port"]) !== undefined) {
    usageError("--metrics-host and --metrics-port need --metrics");
  }
  if (o.metrics && !isLoopbackName(o["metrics-host"]) && !process.env["OCP_HUB_METRICS_TOKEN"]) {
    usageError(
      `--metrics-host ${o["metrics-host"]} is not loopback: set a token in OCP_HUB_METRICS_TOKEN`,
    );
  }
  const natsOnly = ["workspace", "nats-replicas", "nats-ping-interval", "nats-max-pings-out"];
  if (o.nats === undefined && natsOnly.some((name) => values[name] !== undefined)) {
    usageError(`--${natsOnly.join(", --")} need --nats`);
  }
  if (o.federate !== undefined && o.identity === undefined) {
    usageError("--federate needs --identity (the key peer hubs know)");
  }
  if (o.federate !== undefined && o.nats !== undefined && values["db"] === undefined) {
    usageError("--federate with --nats needs --db (this hub's file for the federation tables)");
  }
  const limits: Record<string, number> = {};
  if (o["messages-per-minute"] !== undefined) limits["messages"] = o["messages-per-minute"];
  if (o["broadcasts-per-minute"] !== undefined) limits["broadcasts"] = o["broadcasts-per-minute"];
  const onError = (error: unknown) =>
    process.stderr.write(`ocp-hub: ${error instanceof Error ? error.message : String(error)}\n`);
  if (o.warmup > 0) {
    const warm = await warmUpHub({ messages: o.warmup });
    process.stderr.write(
      warm.completed
        ? `ocp-hub: warmed up: ${warm.messages} messages through a private hub in ${warm.ms} ms (--warmup 0 skips it)\n`
        : `ocp-hub: warm-up stopped after ${warm.messages} messages (${warm.reason}); starting anyway\n`,
    );
  }
  // Cluster: a NATS connection with the JetStream store and the NATS bus.
  const cluster =
    o.nats === undefined
      ? undefined
      : await (await loadNats()).connectNats({
          servers: o.nats,
          ...(o.workspace === undefined ? {} : { workspace: o.workspace }),
          ...(o["nats-replicas"] === undefined ? {} : { replicas: o["nats-replicas"] }),
          ...(o["nats-ping-interval"] === undefined
            ? {}
            : { pingIntervalMs: o["nats-ping-interval"] }),
          ...(o["nats-max-pings-out"] === undefined
            ? {}
            : { maxPingsOut: o["nats-max-pings-out"] }),
          onError,
        });
  const allowed = o.allow === undefined ? undefined : await readAllowList(o.allow);
  const identity = o.identity === undefined ? undefined : await readIdentity(o.identity);
  // Clustered hubs keep no SQLite file unless --db names one for the audit log.
  const audit =
    o.audit && (cluster === undefined || values["db"] !== undefined)
      ? new SqliteAuditLog({
          path: o.db,
          retentionMs: parseDuration(o["audit-retention"])!,
          onError,
        })
      : undefined;
  const federation =
    o.federate === undefined
      ? undefined
      : await (await import("./federation/cli.js")).cliFederation(
          o.federate,
          o.db,
          o.synchronous,
          onError,
          cluster &&
            (await loadNats()).federationShare({ ...cluster, replicas: o["nats-replicas"] ?? 1 }),
        );
  const hub = await OCPHub.start({
    ...(cluster === undefined ? {} : { store: cluster.store, bus: cluster.bus, onError }),
    ...(federation === undefined ? {} : { store: federation.store }),
    ...(allowed === undefined ? {} : { allowedProfiles: allowed }),
    ...(identity === undefined ? {} : { identity }),
    ...(audit === undefined ? {} : { audit }),
    host: o.host,
    port: o.port,
    allowedOrigins: o["allow-origin"],
    dbPath: o.db,
    synchronous: o.synchronous,
    verifyForwarded: o["verify-forwarded"],
    rateLimits: o["rate-limits"] ? limits : false,
  });
  await federation?.start(hub);
  process.stdout.write(`${hub.url}\n`);
  if (federation?.url !== undefined)
    process.stderr.write(`ocp-hub: hub links on ${federation.url}\n`);
  const storage =
    cluster === undefined
      ? `store ${o.db}`
      : `NATS ${o.nats}, workspace ${cluster.subjects.workspace}`;
  process.stderr.write(
    `ocp-hub: listening on ${hub.url}, ${storage}, hub ${hub.self.id}, Ed25519 by ${nativeEd25519Library()}\n`,
  );
  process.stderr.write(
    allowed === undefined
      ? "ocp-hub: registration is OPEN: any agent with a self-signed profile may join; the first key seen for an id is pinned (use --allow FILE to admit only listed agents)\n"
      : `ocp-hub: registration limited to the ${allowed.length} profiles of ${o.allow}\n`,
  );
  const dashboard = o.dashboard
    ? await (await import("./cli-dashboard.js")).startCliDashboard(hub, {
        host: o["dashboard-host"],
        port: o["dashboard-port"],
        token: process.env["OCP_HUB_DASHBOARD_TOKEN"] || undefined,
        showAllVisibilities: o["dashboard-show-all"],
        federation,
      })
    : undefined;
  if (dashboard !== undefined) process.stderr.write(`ocp-hub: dashboard on ${dashboard.url}\n`);
  const metrics = o.metrics
    ? await startCliMetrics(hub, o["metrics-host"], o["metrics-port"])
    : undefined;
  if (metrics !== undefined) process.stderr.write(`ocp-hub: metrics on ${metrics.url}\n`);
  const stop = () => {
    Promise.all([
      dashboard?.close(),
      metrics?.close(),
      federation?.close().then(() => hub.close()),
    ]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** `--metrics`: exits 2 when it would be served off loopback without a token. */
async function startCliMetrics(hub: OCPHub, host: string, port: number) {
  const token = process.env["OCP_HUB_METRICS_TOKEN"] || undefined;
  try {
    return await startHubMetrics(hub, { host, port, ...(token === undefined ? {} : { token }) });
  } catch (error) {
    process.stderr.write(
      `ocp-hub: --metrics: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`ocp-hub: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
