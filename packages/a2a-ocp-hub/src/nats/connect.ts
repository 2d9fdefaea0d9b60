/**
 * `connectNats`: one NATS connection for a hub, with the JetStream store and
 * the NATS bus of a workspace on it. Pass both to {@link OCPHub}
 * (`ocp-hub --nats nats://…` does this); the hub closes the bus, then the
 * store, which drains the connection.
 */
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { hubError } from "../errors.js";
import { JetStreamStore } from "./jetstream-store.js";

export { federationShare } from "./federation-share.js";

import {
  NATS_CONNECT_TIMEOUT_MS,
  NATS_MAX_PINGS_OUT,
  NATS_PING_INTERVAL_MS,
  NATS_RECONNECT_GRACE_MS,
  NATS_RECONNECT_WAIT_MS,
} from "./limits.js";
import { NatsBus } from "./nats-bus.js";
import { dropStaleConnections } from "./stale.js";
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
  /**
   * How often the hub pings its NATS server, ms ({@link NATS_PING_INTERVAL_MS}).
   * A connection with more than `maxPingsOut` pings unanswered is stale: the
   * hub drops it and reconnects to another listed server, so a half-open
   * connection (a partition, a dead middlebox) costs at most
   * `(maxPingsOut + 1) × pingIntervalMs`.
   */
  pingIntervalMs?: number;
  /** Pings left unanswered before the connection is stale ({@link NATS_MAX_PINGS_OUT}). */
  maxPingsOut?: number;
  /**
   * How long commits in flight when the connection is lost wait for the
   * reconnect, ms ({@link NATS_RECONNECT_GRACE_MS}); new ones are refused at
   * once (`store_failed`) until it is back.
   */
  reconnectGraceMs?: number;
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
  const pingInterval = options.pingIntervalMs ?? NATS_PING_INTERVAL_MS;
  const maxPingOut = options.maxPingsOut ?? NATS_MAX_PINGS_OUT;
  if (!Number.isSafeInteger(pingInterval) || pingInterval < 100 || pingInterval > 600_000) {
    throw hubError("invalid_option", "pingIntervalMs is an integer from 100 to 600000 (ms)");
  }
  if (!Number.isSafeInteger(maxPingOut) || maxPingOut < 1 || maxPingOut > 100) {
    throw hubError("invalid_option", "maxPingsOut is an integer from 1 to 100");
  }
  const connection = await connect({
    servers,
    name: options.name ?? `ocp-hub ${subjects.workspace} pid ${process.pid}`,
    timeout: options.timeoutMs ?? NATS_CONNECT_TIMEOUT_MS,
    maxReconnectAttempts: -1,
    pingInterval,
    maxPingOut,
    reconnectTimeWait: NATS_RECONNECT_WAIT_MS,
  });
  dropStaleConnections(connection);
  try {
    const store = await JetStreamStore.open({
      connection,
      subjects,
      ownsConnection: true,
      ...(options.reconnectGraceMs === undefined
        ? {}
        : { reconnectGraceMs: options.reconnectGraceMs }),
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
