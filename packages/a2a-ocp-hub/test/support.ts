import type { HubClient, HubClientOptions } from "@ocp/a2a-ocp-client";
import { type AgentIdentity, createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import {
  client,
  identity,
  type RawAgent,
  rawAgent,
  tempDir,
  testHubOptions,
  until,
} from "@ocp/testkit";
import { afterEach, beforeEach } from "vitest";
import { OCPHub, type OCPHubOptions } from "../src/index.js";

export { accessNode as node, client, identity, tempDir, until, within } from "@ocp/testkit";

/** An agent's identity and its raw socket on a hub. */
export interface Signer {
  id: AgentIdentity;
  raw: RawAgent;
}

/**
 * Sends `signed` (a signed message whose id is `id`) through `raw`; resolves
 * with the hub's answer to it (an ack or a reject) and the answer's code.
 */
export async function hubAnswer(raw: RawAgent, signed: object, id: string) {
  raw.send(JSON.stringify(signed));
  await until(
    () => raw.controls().some((c) => c.payload["id"] === id),
    `the hub's answer to ${id}`,
  );
  const answer = raw.controls().find((c) => c.payload["id"] === id)!;
  return { answer, code: answer.payload["code"] as string | undefined };
}

/** Sends a message signed by `from` through its raw agent; resolves with the message, the hub's answer and its code. */
export async function sendSigned(
  from: Signer,
  init: Omit<Parameters<typeof createMessage>[0], "from">,
) {
  const message = createMessage({ ...init, from: from.id.id } as Parameters<
    typeof createMessage
  >[0]);
  return {
    message,
    ...(await hubAnswer(from.raw, signObject(message, from.id.secretKey), message.id)),
  };
}

/**
 * `member` subscribes to the events of `eventTypes` (and `filters`) from the
 * whole hub, as `subscriptionId`; resolves with the hub's receipt.
 */
export function subscribeEvents(
  member: HubClient,
  subscriptionId: string,
  eventTypes: string[],
  filters?: Record<string, unknown>,
) {
  return member.send({
    type: "ocp.event.subscribe",
    to: "broadcast",
    payload: { subscriptionId, eventTypes, ...(filters === undefined ? {} : { filters }) },
  });
}

/** A hub on 127.0.0.1:0 with a real SQLite file in `dir`; generous rate limits unless given. */
export function startHub(dir: string, options: OCPHubOptions = {}): Promise<OCPHub> {
  return OCPHub.start({ ...testHubOptions(dir), ...options });
}

/**
 * A fresh hub for each test of the calling file (a real SQLite file in a temp
 * dir), and the raw agents and hub clients on it, closed after each test:
 * registers the `beforeEach`/`afterEach` pair the file would otherwise write
 * itself.
 */
export function hubPerTest(options: () => OCPHubOptions = () => ({})) {
  let dir: { dir: string; cleanup: () => void } | undefined;
  let current: OCPHub | undefined;
  const raws: RawAgent[] = [];
  const clients: HubClient[] = [];
  beforeEach(async () => {
    dir = tempDir();
    current = await startHub(dir.dir, options());
  });
  afterEach(async () => {
    for (const raw of raws.splice(0)) raw.close();
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await current?.close();
    dir?.cleanup();
  });
  return {
    /** The current test's hub. */
    get hub(): OCPHub {
      if (current === undefined) throw new Error("hubPerTest: no hub outside a test");
      return current;
    },
    /** A raw agent registered as `id` on the current hub, closed after the test. */
    async raw(id: AgentIdentity): Promise<RawAgent> {
      const agent = await rawAgent(this.hub.url, id);
      raws.push(agent);
      return agent;
    },
    /** A fresh identity named `name` and its raw agent on the current hub, closed after the test. */
    async signer(name: string): Promise<Signer> {
      const id = identity(name);
      return { id, raw: await this.raw(id) };
    },
    /** Closes the current hub and starts another on the same SQLite file with `options`. */
    async restart(restartOptions: OCPHubOptions): Promise<OCPHub> {
      await current?.close();
      if (dir === undefined) throw new Error("hubPerTest: no hub outside a test");
      current = await startHub(dir.dir, restartOptions);
      return current;
    },
    /** Hub clients opened by {@link join} (or pushed by the test), closed after it. */
    clients,
    /** A fresh identity named `name`, registered on the current hub by a hub client. */
    async join(name: string, options: Partial<HubClientOptions> = {}) {
      const id = identity(name);
      const joined = await client(this.hub.url, id, options);
      clients.push(joined.client);
      return { id, ...joined };
    },
  };
}
