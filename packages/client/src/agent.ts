import {
  OCPAgent as AgentRuntime,
  type CollectiveQueryOptions,
  type CollectiveResult,
  hubLink,
  type OCPAgentEvents,
} from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import {
  identityFromSecretKey,
  type KnowledgeEdge,
  type KnowledgeNode,
  type KnowledgeSubscribePayload,
} from "@ocp/a2a-ocp-messaging";
import { isOcpError } from "@ocp/types";
import { clientError } from "./errors.js";
import { readPrivateKey } from "./key.js";

/** How long the first connection may take before every pending call fails `not_connected`, ms. */
export const CONNECT_TIMEOUT_MS = 15_000;

/** The options of §10.5's `new OCPAgent({ id, privateKey, endpoint })`. */
export interface OCPAgentConfig {
  /** This agent's `a2a://` id. */
  readonly id: string;
  /** Its Ed25519 private key: 32 bytes, base64 or hex, or a `Uint8Array` (`generatePrivateKey()`). */
  readonly privateKey: string | Uint8Array | undefined;
  /** The hub's WebSocket URL (`ws://…` or `wss://…`). */
  readonly endpoint: string;
  /** Bound on the first connection, ms (default {@link CONNECT_TIMEOUT_MS}). */
  readonly connectTimeoutMs?: number;
}

/**
 * §10.5's subscription options: the filters may be given flat (`domains`,
 * `nodeTypes`, `tags`, `minConfidence`) as the specification's example
 * does, or as `filters`; `deliveryMode` is `push` unless given.
 */
export type SubscribeOptions = Partial<Omit<KnowledgeSubscribePayload, "filters">> & {
  readonly filters?: KnowledgeSubscribePayload["filters"];
  readonly domains?: string[];
  readonly nodeTypes?: string[];
  readonly tags?: string[];
  readonly minConfidence?: number;
};

/**
 * The agent of the specification's TypeScript example (§10.5): one object
 * that connects to its hub on construction and runs the whole agent runtime
 * (`@ocp/a2a-ocp-agent`'s `OCPAgent` on a `HubClient`). Calls made before
 * the connection is up wait for it; if it never comes they fail with
 * `not_connected`. `runtime` is the full runtime for everything else
 * (collective queries, consensus, awareness, events, sync).
 */
export class OCPAgent {
  readonly id: string;
  /** The agent runtime this object drives. */
  readonly runtime: AgentRuntime;
  readonly #client: HubClient;
  readonly #connected: Promise<void>;
  #closed = false;

  constructor(config: OCPAgentConfig) {
    if (typeof config !== "object" || config === null) {
      throw clientError("invalid_option", "new OCPAgent(...) needs { id, privateKey, endpoint }");
    }
    if (typeof config.endpoint !== "string" || !/^wss?:\/\/./.test(config.endpoint)) {
      throw clientError("invalid_option", "endpoint must be a ws:// or wss:// URL");
    }
    const identity = identityFromSecretKey(config.id, readPrivateKey(config.privateKey));
    this.id = identity.id;
    this.#client = new HubClient({ url: config.endpoint, identity });
    this.runtime = new AgentRuntime({ identity, link: hubLink(this.#client) }).start();
    this.#connected = connectWithin(this.#client, config.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    // Failures surface on the calls that wait for the connection, never as an unhandled rejection.
    this.#connected.catch(() => undefined);
  }

  /** Resolves once registered at the hub; rejects `not_connected` when that failed. */
  connected(): Promise<void> {
    return this.#connected;
  }

  /** Listens to the runtime's events (`knowledge` gives the merged nodes, their sender, the receipt). */
  on<K extends keyof OCPAgentEvents>(
    event: K,
    listener: (...args: OCPAgentEvents[K]) => void,
  ): () => void {
    return this.runtime.on(event, listener);
  }

  /** Subscribes to `publisher`'s knowledge (§5.1.2); resolves with the subscription id. */
  async subscribe(publisher: string, options: SubscribeOptions = {}): Promise<string> {
    const { domains, nodeTypes, tags, minConfidence, filters, deliveryMode, ...rest } = options;
    const flat = { domains, nodeTypes, tags, minConfidence };
    const merged: Record<string, unknown> = { ...filters };
    for (const [key, value] of Object.entries(flat)) {
      if (value !== undefined) merged[key] = value;
    }
    await this.#ready();
    return this.runtime.subscribe(publisher, {
      ...rest,
      deliveryMode: deliveryMode ?? "push",
      ...(Object.keys(merged).length > 0 ? { filters: merged } : {}),
    });
  }

  /** Ends a subscription made with {@link subscribe}. */
  async unsubscribe(publisher: string, subscriptionId: string): Promise<void> {
    await this.#ready();
    return this.runtime.unsubscribe(publisher, subscriptionId);
  }

  /** Adds or edits nodes (and edges) and streams them to the matching subscribers (§5.1.1). */
  async streamKnowledge(
    nodes: readonly KnowledgeNode[],
    edges: readonly KnowledgeEdge[] = [],
  ): Promise<void> {
    await this.#ready();
    return this.runtime.streamKnowledge(nodes, edges);
  }

  /** Asks the team (§5.2): the findings of every agent that answered, and a synthesis. */
  async query(question: string, options: CollectiveQueryOptions = {}): Promise<CollectiveResult> {
    await this.#ready();
    return this.runtime.collectiveQuery(question, options);
  }

  /** Disconnects and stops the runtime; every later call fails `not_connected`. */
  close(): Promise<void> {
    this.#closed = true;
    return this.runtime.close();
  }

  /** Waits for registration; `not_connected` once closed, or when it failed. */
  async #ready(): Promise<void> {
    if (this.#closed) throw clientError("not_connected", "the agent was closed");
    await this.#connected;
    if (this.#closed) throw clientError("not_connected", "the agent was closed");
  }
}

function connectWithin(client: HubClient, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(clientError("not_connected", `no registration at the hub within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  return Promise.race([client.connect(), timeout])
    .catch((error: unknown) => {
      void client.close().catch(() => undefined);
      if (isOcpError(error) && error.code === "not_connected") throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw clientError("not_connected", `could not connect to the hub: ${reason}`);
    })
    .finally(() => clearTimeout(timer));
}
