export { connectNats, type NatsCluster, type NatsClusterOptions } from "./connect.js";
export {
  FederationCluster,
  type FederationClusterOptions,
  type FederationShareOptions,
  federationShare,
} from "./federation-share.js";
export { JetStreamStore, type JetStreamStoreOptions } from "./jetstream-store.js";
export * from "./limits.js";
export { NatsBus, type NatsBusOptions } from "./nats-bus.js";
export {
  agentToken,
  DEFAULT_WORKSPACE,
  EXPIRES_HEADER,
  encodeSegment,
  FROM_HEADER,
  ID_HEADER,
  SEQ_HEADER,
  Subjects,
  WORKSPACE_PATTERN,
} from "./subjects.js";
