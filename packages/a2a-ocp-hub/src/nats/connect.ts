/**
 * `connectNats`: one NATS connection for a hub, with the JetStream store and
 * the NATS bus of a workspace on it. Pass both to {@link OCPHub}
 * (`ocp-hub --nats nats://…` does this); the hub closes the bus, then the
 * store, which drains the connection.
 */
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { JetStreamStore } from "./jetstream-store.js";
import { NATS_CONNECT_TIMEOUT_MS } from "./limits.js";
import { NatsBus } from "./nats-bus.js";
import { DEFAULT_WORKSPACE, Subjects } from "./subjects.js";

export interface NatsClusterOptions {
  /** `nats://host:port`, or several, comma-separated or as an array. */
  servers: string | readonly string[];
  /** The workspace: hubs of one workspace form one team ({@link DEFAULT_WORKSPACE} by default). */
  workspace?: string;
  /** JetStream replicas of streams and buckets (1; 3 on a NATS cluster of three servers). */
  replicas?: number;
  /** Connection name shown by the server's monitoring (`ocp-hub <workspace> pid <pid>`). */
  name?: string;
  /** Connect timeout, ms ({@link NATS_CONNECT_TIMEOUT_MS}). */
  timeoutMs?: number;
  onError?: (error: unknown) => void;
}

/** A hub's share of the cluster: its connection, store and bus. */
export interface NatsCluster {
  connection: NatsConnection;
  subjects: Subjects;
  store: JetStreamStore;
  bus: NatsBus;
}

/** Connects to NATS (JetStream must be enabled) and opens the workspace's store and bus. */
export async function connectNats(options: NatsClusterOptions): Promise<NatsCluster> {
  const subjects = new Subjects(options.workspace ?? DEFAULT_WORKSPACE);
  const servers =
    typeof options.servers === "string"
      ? options.servers.split(",").map((s) => s.trim())
      : [...options.servers];
  const connection = await connect({
    servers,
    name: options.name ?? `ocp-hub ${subjects.workspace} pid ${process.pid}`,
    timeout: options.timeoutMs ?? NATS_CONNECT_TIMEOUT_MS,
    maxReconnectAttempts: -1,
  });
  try {
    const store = await JetStreamStore.open({
      connection,
      subjects,
      ownsConnection: true,
      ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
    });
    const bus = await NatsBus.open({
      connection,
      subjects,
      store,
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    return { connection, subjects, store, bus };
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
}
