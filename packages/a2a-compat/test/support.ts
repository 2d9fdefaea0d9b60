import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentCard, Message, Task, TaskState } from "@a2a-js/sdk";
import { AGENT_CARD_PATH, Role } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { JsonRpcTransportError } from "@a2a-js/sdk/errors";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import type { AgentLink, OCPAgentOptions } from "@ocp/a2a-ocp-agent";
import { hubLink, MemoryNetwork, OCPAgent } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub, type OCPHubOptions } from "@ocp/a2a-ocp-hub";
import type { AgentIdentity, OcpFeature, PlainMessage } from "@ocp/a2a-ocp-messaging";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { identity, testHubOptions, within } from "@ocp/testkit";
import express from "express";
import {
  FeatureNegotiator,
  negotiatedLink,
  type OcpAgentCard,
  profileWithCard,
} from "../src/index.js";
import { type A2AServeOptions, A2AServer } from "../src/server.js";

export { identity, tempDir, until, within } from "@ocp/testkit";

/** What any A2A client sends: a user message with a data part `{ task, input, from? }` (built without the package's helpers). */
export function sdkRequest(
  task: string,
  input: unknown,
  from?: string,
): Parameters<Client["sendMessage"]>[0] {
  const message: Message = {
    messageId: globalThis.crypto.randomUUID(),
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: "data", value: { task, input, ...(from === undefined ? {} : { from }) } },
        metadata: undefined,
        filename: "",
        mediaType: "application/json",
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

/** A hub on 127.0.0.1:0 with a real SQLite file in `dir`. */
export function startHub(dir: string, options: OCPHubOptions = {}): Promise<OCPHub> {
  return OCPHub.start({ ...testHubOptions(dir), ...options });
}

/** Started agents on one in-memory network, each named `a2a://<name>`. */
export function team(names: string[]): OCPAgent[] {
  return network(names).agents;
}

/**
 * Started agents on one in-memory network, and `member(name)`: an identity
 * whose key the network (so each agent's `lookupKey`) knows, with no agent
 * behind it — an A2A caller the agents can authenticate.
 */
export function network(
  names: string[],
  options: Omit<OCPAgentOptions, "identity" | "link"> = {},
): {
  agents: OCPAgent[];
  /** The agents' identities, in order. */
  identities: AgentIdentity[];
  member(name: string): AgentIdentity;
} {
  const net = new MemoryNetwork();
  const member = (name: string) => {
    const id = generateIdentity(`a2a://${name}`);
    net.link(id.id, id.publicKey);
    return id;
  };
  const identities = names.map((name) => generateIdentity(`a2a://${name}`));
  const agents = identities.map((id) =>
    new OCPAgent({ ...options, identity: id, link: net.link(id.id, id.publicKey) }).start(),
  );
  return { agents, identities, member };
}

/** The runtime's `hubLink` over a connected `HubClient`, recording every verified message it delivers. */
export function hubAgentLink(client: HubClient): AgentLink & { received: PlainMessage[] } {
  const link = hubLink(client);
  const received: PlainMessage[] = [];
  link.onMessage((m) => received.push(m));
  return { ...link, received };
}

/** A full OCP agent: its A2A server, its card in its hub profile, a negotiated link to the hub. */
export interface TestAgent {
  identity: AgentIdentity;
  agent: OCPAgent;
  client: HubClient;
  link: AgentLink & { received: PlainMessage[] };
  negotiator: FeatureNegotiator;
  server: A2AServer;
  card: OcpAgentCard;
  close(): Promise<void>;
}

export async function ocpAgent(
  hubUrl: string,
  name: string,
  options: { features?: OcpFeature[]; workspace?: string; voter?: A2AServeOptions["voter"] } = {},
): Promise<TestAgent> {
  const id = identity(name);
  const server = await A2AServer.listen();
  const card = server.cardFor({
    id: id.id,
    name,
    endpoints: { websocket: hubUrl },
    ...(options.features === undefined ? {} : { features: options.features }),
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
  });
  const client = await HubClient.connect({
    url: hubUrl,
    identity: id,
    profile: profileWithCard(id, card),
    transport: { reconnectBaseMs: 20 },
  });
  const link = hubAgentLink(client);
  const negotiator = new FeatureNegotiator({
    identity: id,
    link,
    ...(options.features === undefined ? {} : { features: options.features }),
    timeoutMs: 10_000,
  });
  const agent = new OCPAgent({ identity: id, link: negotiatedLink(link, negotiator) }).start();
  server.serve({ agent, card, ...(options.voter === undefined ? {} : { voter: options.voter }) });
  return {
    identity: id,
    agent,
    client,
    link,
    negotiator,
    server,
    card,
    close: async () => {
      await agent.close();
      await server.close();
    },
  };
}

/** A plain A2A agent built with the SDK's server only: it knows nothing of OCP. */
export interface PlainAgent {
  url: string;
  /** The messages it received, as the SDK handed them to its executor. */
  received: Message[];
  /** GET requests for its card. */
  cardRequests: number;
  close(): Promise<void>;
}

export async function plainA2AAgent(
  reply: (data: Record<string, unknown>) => unknown,
): Promise<PlainAgent> {
  const app = express();
  const server: Server = createServer(app);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: PlainAgent = {
    url,
    received: [],
    cardRequests: 0,
    close: async () => {
      const closed = once(server, "close");
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
  const card: AgentCard = {
    name: "Plain A2A agent",
    description: "An A2A agent that answers with a data part",
    supportedInterfaces: [
      { url: `${url}/rpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
    ],
    provider: undefined,
    version: "0.1.0",
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: [],
    signatures: [],
  };
  const executor: AgentExecutor = {
    execute: async (context, bus) => {
      const message = context.userMessage;
      state.received.push(message);
      const data = message.parts.find((p) => p.content?.$case === "data")?.content;
      const value = data?.$case === "data" ? (data.value as Record<string, unknown>) : {};
      bus.publish(
        AgentEvent.message({
          messageId: globalThis.crypto.randomUUID(),
          contextId: context.contextId,
          taskId: "",
          role: Role.ROLE_AGENT,
          parts: [
            {
              content: { $case: "data", value: reply(value) },
              metadata: undefined,
              filename: "",
              mediaType: "application/json",
            },
          ],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }),
      );
    },
    cancelTask: async () => {},
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use(`/${AGENT_CARD_PATH}`, (_req, _res, next) => {
    state.cardRequests += 1;
    next();
  });
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use(
    "/rpc",
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  return state;
}

/** An SDK client for `url` whose JSON-RPC requests go through `fetchImpl` (to send crafted credentials). */
export function sdkClientWith(url: string, fetchImpl: typeof fetch): Promise<Client> {
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  ).createFromUrl(url);
}

/** The JSON-RPC error an SDK call was refused with: its code and `data.reason`. */
export async function refused(
  call: Promise<unknown>,
): Promise<{ code: number | undefined; reason: unknown; message: string }> {
  const error = await within(
    call.then(
      () => undefined,
      (e: unknown) => e,
    ),
  );
  if (!(error instanceof JsonRpcTransportError))
    throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
  const body = error.errorResponse.error as { code: number; message: string; data?: unknown };
  return {
    code: body.code,
    reason: (body.data as { reason?: unknown } | undefined)?.reason,
    message: body.message,
  };
}

/** The state and `error.code` of a task result (for rejected tasks). */
export function outcome(result: Message | Task): { state: TaskState | undefined; code: unknown } {
  const task = result as Task;
  const data = task.status?.message?.parts.find((p) => p.content?.$case === "data")?.content;
  const value = data?.$case === "data" ? (data.value as { error?: { code?: unknown } }) : {};
  return { state: task.status?.state, code: value.error?.code };
}
