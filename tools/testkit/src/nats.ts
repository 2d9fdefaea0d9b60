import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer, Socket } from "node:net";
import { createInterface } from "node:readline";
import type { DeliveredMessage, HubClient, HubClientOptions } from "@ocp/a2a-ocp-client";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { client, identity, tempDir } from "./index.js";

/** Bound on starting a process and on it accepting connections, ms. */
const START_TIMEOUT_MS = 20_000;

/**
 * Fails loudly when `nats-server` is missing: the cluster tests need a real
 * server, and CI installs it (`apt-get install -y nats-server`).
 */
export function requireNatsServer(): void {
  const probe = spawnSync("nats-server", ["--version"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(
      "nats-server is not on PATH: the NATS cluster tests need a real server with JetStream. " +
        "Install it with `apt-get install -y nats-server` (Debian) and run the tests again.",
    );
  }
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

export interface NatsServer {
  url: string;
  port: number;
  /** HTTP monitoring port (`/connz`, `/jsz`, …) of a cluster node. */
  monitorPort?: number;
  child: ChildProcess;
  /** Stops the server by its pid and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `nats-server` with JetStream on a free loopback port (or `port`: a
 * server restarted where it was), storing in `storeDir`.
 */
export async function startNatsServer(storeDir: string, port?: number): Promise<NatsServer> {
  requireNatsServer();
  port ??= await freePort();
  return spawnNats(["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir], port);
}

/**
 * Starts `count` `nats-server` processes clustered on loopback (free client
 * and route ports; JetStream on each, storing under `storeDir/n<i>`), and
 * waits until JetStream answers on the cluster (its meta leader is elected),
 * so streams with `count` replicas can be made at once. Stop each by pid
 * (`stop`, or `stopProcess(node.child, "SIGKILL")` to kill one).
 */
export async function startNatsClusterNodes(storeDir: string, count = 3): Promise<NatsServer[]> {
  requireNatsServer();
  const ports = await distinctFreePorts(3 * count);
  const clientPorts = ports.slice(0, count);
  const routePorts = ports.slice(count, 2 * count);
  const monitorPorts = ports.slice(2 * count);
  const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`).join(",");
  const nodes: NatsServer[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const args = [
        ...["-a", "127.0.0.1", "-p", String(clientPorts[i]), "-n", `ocp-test-n${i}`],
        ...["-m", String(monitorPorts[i])],
        ...["-js", "-sd", `${storeDir}/n${i}`, "--cluster_name", "ocp-test"],
        ...["--cluster", `nats://127.0.0.1:${routePorts[i]}`, "--routes", routes],
      ];
      nodes.push({ ...(await spawnNats(args, clientPorts[i]!)), monitorPort: monitorPorts[i]! });
    }
    await waitForJetStream(monitorPorts);
    return nodes;
  } catch (error) {
    await Promise.all(nodes.map((node) => stopProcess(node.child, "SIGKILL")));
    throw error;
  }
}

/** `count` free loopback ports, all different (asked of the OS one after another). */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** Spawns `nats-server args` and resolves once it accepts connections on `port` (killed if it never does). */
async function spawnNats(args: string[], port: number): Promise<NatsServer> {
  const child = spawn("nats-server", args, { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-4000);
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nats-server did not accept connections on ${port}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { url: `nats://127.0.0.1:${port}`, port, child, stop: () => stopProcess(child) };
}

/** Resolves once every node's monitoring (`/jsz`) names a JetStream meta leader. */
async function waitForJetStream(monitorPorts: number[]): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  const hasLeader = async (port: number) => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/jsz`);
      const body = (await response.json()) as { meta_cluster?: { leader?: string } };
      return typeof body.meta_cluster?.leader === "string" && body.meta_cluster.leader !== "";
    } catch {
      return false;
    }
  };
  while (!(await Promise.all(monitorPorts.map(hasLeader))).every(Boolean)) {
    if (Date.now() > deadline) throw new Error("the NATS cluster elected no JetStream leader");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends SIGTERM to a child by pid (SIGKILL after the bound) and waits for its exit. */
export function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return Promise.resolve();
  }
  const pid = child.pid;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, START_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(pid, signal);
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

export interface HubProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/** Starts `ocp-hub --nats URL --workspace W` (the CLI script at `cli`) as a child process; resolves with its URL. */
export function startClusterHub(
  cli: string,
  natsUrl: string,
  workspace: string,
  extraArgs: readonly string[] = [],
): Promise<HubProcess> {
  const child = spawn(
    process.execPath,
    [cli, "--nats", natsUrl, "--workspace", workspace, "--no-rate-limits", ...extraArgs],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-8000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the hub did not start:\n${log}`));
    }, START_TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the hub exited with ${code}:\n${log}`));
    });
    createInterface({ input: child.stdout! }).once("line", (url) => {
      clearTimeout(timer);
      resolve({ child, url, stderr: () => log });
    });
  });
}

/** What the cluster tests share: three hub processes on one NATS server. */
export interface ClusterContext {
  hubs: HubProcess[];
  /** The NATS server's URL. */
  natsUrl(): string;
  /** Connects a new agent to hub `hub` (closed after the suite). */
  join(
    name: string,
    hub: number,
    options?: Partial<HubClientOptions>,
  ): Promise<{ id: AgentIdentity; client: HubClient; received: DeliveredMessage[] }>;
  /** Connects `id` to hub `hub` (a moved agent). */
  rejoin(
    id: AgentIdentity,
    hub: number,
    options?: Partial<HubClientOptions>,
  ): Promise<{ client: HubClient; received: DeliveredMessage[] }>;
  /** Runs `close` after the suite (before the hubs stop). */
  onClose(close: () => Promise<unknown>): void;
}

/** Reconnect quickly in tests. */
export const transport = { reconnectBaseMs: 50, reconnectMaxMs: 500 };

/**
 * A real `nats-server` with JetStream and `hubCount` `ocp-hub --nats`
 * processes (the CLI at `cli`) in one workspace: `start` in `beforeAll`,
 * `stop` in `afterAll` (closers, clients, hubs by pid, the server, the store).
 */
export function natsCluster(
  cli: string,
  workspace: string,
  hubCount = 3,
): ClusterContext & { start(): Promise<void>; stop(): Promise<void> } {
  requireNatsServer();
  const dir = tempDir("ocp-nats-");
  let nats: NatsServer | undefined;
  const hubs: HubProcess[] = [];
  const clients: HubClient[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  return {
    hubs,
    natsUrl: () => nats?.url ?? "",
    async start() {
      nats = await startNatsServer(dir.dir);
      for (let i = 0; i < hubCount; i++) hubs.push(await startClusterHub(cli, nats.url, workspace));
    },
    async stop() {
      await Promise.all(closers.map((close) => close().catch(() => undefined)));
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await Promise.all(hubs.map((hub) => stopProcess(hub.child)));
      await nats?.stop();
      dir.cleanup();
    },
    async join(name, hub, options = {}) {
      const id = identity(name);
      const joined = await client(hubs[hub]!.url, id, { transport, ...options });
      clients.push(joined.client);
      return { id, ...joined };
    },
    async rejoin(id, hub, options = {}) {
      const joined = await client(hubs[hub]!.url, id, { transport, ...options });
      clients.push(joined.client);
      return joined;
    },
    onClose(close) {
      closers.push(close);
    },
  };
}

/**
 * Why this process cannot blackhole a loopback TCP connection (not root, or
 * no working `iptables`), or `undefined` when it can. The partition tests
 * skip with this reason.
 */
export function blackholeUnavailable(): string | undefined {
  if (typeof process.getuid === "function" && process.getuid() !== 0) {
    return "not root: iptables rules need root (run the heavy tests as root, e.g. in a container: see the hub README)";
  }
  const probe = spawnSync("iptables", ["-w", "-n", "-L", "INPUT"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    return `iptables is missing or does not work here (${probe.error?.message ?? probe.stderr.trim()}): apt-get install -y iptables`;
  }
  return undefined;
}

/** A silently dropped loopback TCP connection; `heal` deletes its rules (idempotent, never throws). */
export interface Blackhole {
  heal(): void;
}

/**
 * Drops, in both directions, every packet of the one loopback TCP
 * connection between `serverPort` and `clientPort` (iptables `INPUT` rules
 * on `lo`): a half-open connection, as a partition or a dead middlebox
 * leaves it. Other connections to the same server are untouched. Call
 * `heal` in a `finally`/`afterAll`.
 */
export function blackholeLoopback(serverPort: number, clientPort: number): Blackhole {
  const rules = [
    ["--sport", String(serverPort), "--dport", String(clientPort)],
    ["--sport", String(clientPort), "--dport", String(serverPort)],
  ].map((ports) => ["INPUT", "-i", "lo", "-p", "tcp", ...ports, "-j", "DROP"]);
  const inserted: string[][] = [];
  const heal = () => {
    for (const rule of inserted.splice(0)) {
      spawnSync("iptables", ["-w", "-D", ...rule], { encoding: "utf8" });
    }
  };
  for (const rule of rules) {
    const run = spawnSync("iptables", ["-w", "-I", ...rule], { encoding: "utf8" });
    if (run.error !== undefined || run.status !== 0) {
      heal();
      throw new Error(`iptables -I ${rule.join(" ")} failed: ${run.error?.message ?? run.stderr}`);
    }
    inserted.push(rule);
  }
  return { heal };
}

/** The client-side ports of the connections named `name` on a cluster node (its `/connz`). */
export async function connectionPorts(node: NatsServer, name: string): Promise<number[]> {
  const response = await fetch(`http://127.0.0.1:${node.monitorPort}/connz`);
  const { connections } = (await response.json()) as {
    connections?: Array<{ name?: string; port?: number }>;
  };
  return (connections ?? []).filter((c) => c.name === name).map((c) => c.port ?? 0);
}
