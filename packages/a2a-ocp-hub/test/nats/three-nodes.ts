/**
 * The heavy tests' three-node NATS: three `nats-server` processes clustered
 * on loopback (JetStream on each, its own store directory) and three
 * `ocp-hub --nats` processes in one workspace, each given every node, with
 * streams and buckets of three replicas. Every process is stopped by pid
 * after the suite.
 */
import { fileURLToPath } from "node:url";
import type { DeliveredMessage, HubClient } from "@ocp/a2a-ocp-client";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { client, identity, tempDir } from "@ocp/testkit";
import {
  connectionPorts,
  type HubProcess,
  type NatsServer,
  startClusterHub,
  startNatsClusterNodes,
  stopProcess,
  transport,
} from "@ocp/testkit/nats";
import { afterAll, beforeAll } from "vitest";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface ThreeNodes {
  /** The NATS nodes (empty until `beforeAll` ran, and when skipped). */
  readonly nodes: NatsServer[];
  readonly hubs: HubProcess[];
  /**
   * A new agent on hub `hub`, closed after the suite; its client gives up
   * after 20 s, so every wait a test sees is the hub's.
   */
  join(
    name: string,
    hub: number,
  ): Promise<{ id: AgentIdentity; client: HubClient; received: DeliveredMessage[] }>;
  /** Where `hub`'s NATS connections are now: node index and client-side port. */
  connections(hub: HubProcess): Promise<Array<{ node: number; port: number }>>;
}

/**
 * Registers the `beforeAll` that starts the cluster for `workspace` (its
 * store in a temporary directory named with `prefix`) unless `skip`, and the
 * `afterAll` that runs `beforeStop`, closes the agents and stops every hub
 * and node.
 */
export function threeNodes(
  workspace: string,
  prefix: string,
  options: { skip?: boolean; beforeStop?: () => void } = {},
): ThreeNodes {
  const dir = tempDir(prefix);
  const state = { nodes: [] as NatsServer[] };
  const hubs: HubProcess[] = [];
  const clients: HubClient[] = [];

  beforeAll(async () => {
    if (options.skip === true) return;
    state.nodes = await startNatsClusterNodes(dir.dir, 3);
    const urls = state.nodes.map((n) => n.url).join(",");
    for (let i = 0; i < 3; i++) {
      hubs.push(await startClusterHub(CLI, urls, workspace, ["--nats-replicas", "3"]));
    }
  }, 180_000);

  afterAll(async () => {
    options.beforeStop?.();
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all(hubs.map((hub) => stopProcess(hub.child)));
    await Promise.all(state.nodes.map((n) => n.stop()));
    dir.cleanup();
  }, 60_000);

  return {
    get nodes() {
      return state.nodes;
    },
    hubs,
    async join(name, hub) {
      const id = identity(name);
      const joined = await client(hubs[hub]!.url, id, { transport, ackTimeoutMs: 20_000 });
      clients.push(joined.client);
      return { id, ...joined };
    },
    async connections(hub) {
      const name = `ocp-hub ${workspace} pid ${hub.child.pid}`;
      const found = await Promise.all(state.nodes.map((n) => connectionPorts(n, name)));
      return found.flatMap((ports, i) => ports.map((port) => ({ node: i, port })));
    },
  };
}
