import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer, Socket } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../dist/hub/cli.js", import.meta.url));

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
  child: ChildProcess;
  /** Stops the server by its pid and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `nats-server` with JetStream on a free loopback port, storing in `storeDir`. */
export async function startNatsServer(storeDir: string): Promise<NatsServer> {
  requireNatsServer();
  const port = await freePort();
  const child = spawn(
    "nats-server",
    ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
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
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    child,
    stop: () => stopProcess(child),
  };
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

/** Starts `ocp-hub --nats URL --workspace W` as a child process; resolves with its URL. */
export function startClusterHub(natsUrl: string, workspace: string): Promise<HubProcess> {
  const child = spawn(
    process.execPath,
    [CLI, "--nats", natsUrl, "--workspace", workspace, "--no-rate-limits"],
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
