/** Two organisations' real hubs (each its own SQLite file and sockets) linked by federation, in one process. */
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { Federation, parseFederationConfig } from "@ocp/a2a-ocp-hub/federation";
import {
  type AgentIdentity,
  createMessage,
  generateIdentity,
  type KnowledgeNode,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { type RawAgent, rawAgent, sampleNode, tempDir, testHubOptions, until } from "@ocp/testkit";

export interface Org {
  key: AgentIdentity;
  hub: OCPHub;
  federation: Federation;
  agent(name: string): Promise<{ id: AgentIdentity; raw: RawAgent }>;
  close(): Promise<void>;
}

/** A federate file entry for `name`'s hub (agents `a2a://<name>/…`). */
export const peerEntry = (name: string, key: AgentIdentity, url?: string) => ({
  hubId: key.id,
  publicKey: Buffer.from(key.publicKey).toString("base64"),
  agents: [`a2a://${name}/`],
  ...(url === undefined ? {} : { url }),
});

/** `name`'s hub with federation `peers`, listening for hub links when `listen`. */
export async function startOrg(
  name: string,
  key: AgentIdentity,
  peers: unknown[],
  listen: boolean,
  teamOf?: (agentId: string) => string | undefined,
) {
  const temp = tempDir(`ocp-dash-fed-${name}-`);
  const base = testHubOptions(temp.dir);
  const config = parseFederationConfig({
    ...(listen ? { listen: { host: "127.0.0.1", port: 0 } } : {}),
    peers,
  });
  const federation = new Federation({ config, dbPath: base.dbPath, onError: () => {} });
  const hub = await OCPHub.start({
    ...base,
    identity: key,
    store: federation.store,
    allow: federation.allow,
    ...(teamOf === undefined ? {} : { teamOf }),
  });
  await federation.start(hub);
  const raws: RawAgent[] = [];
  let closed = false;
  const org: Org = {
    key,
    hub,
    federation,
    async agent(agentName) {
      const id = generateIdentity(`a2a://${name}/${agentName}`);
      const raw = await rawAgent(hub.url, id, 10_000, { profile: { visibility: "public" } });
      raws.push(raw);
      return { id, raw };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const raw of raws) raw.close();
      await federation.close();
      await hub.close();
      temp.cleanup();
    },
  };
  return org;
}

/** acme (accepts hub links) and globex (dials acme), linked. */
export async function linkedOrgs(): Promise<{ acme: Org; globex: Org }> {
  const acmeKey = generateIdentity("a2a://acme-hub");
  const globexKey = generateIdentity("a2a://globex-hub");
  // acme's operator puts every agent it knows, remote ones too, in one team: the hub's own
  // §8.5 rule then lets a team node through to a remote agent, and federation must withhold it.
  const acme = await startOrg("acme", acmeKey, [peerEntry("globex", globexKey)], true, () => "eng");
  const globex = await startOrg(
    "globex",
    globexKey,
    [peerEntry("acme", acmeKey, acme.federation.url)],
    false,
  );
  await until(
    () => acme.federation.links()[0]!.open && globex.federation.links()[0]!.open,
    "the link",
  );
  return { acme, globex };
}

/** A knowledge node by `author` with the given id (its title: `<id> title`). */
export function node(author: string, id: string, visibility: string): KnowledgeNode {
  return sampleNode({ createdBy: author, id, title: `${id} title`, visibility } as Parameters<
    typeof sampleNode
  >[0]);
}

/** Streams `nodes` from `from` to `to` and waits for the hub's answer. */
export async function streamNodes(
  from: { id: AgentIdentity; raw: RawAgent },
  to: string,
  nodes: KnowledgeNode[],
): Promise<string> {
  const message = createMessage({
    type: "ocp.knowledge.stream",
    from: from.id.id,
    to,
    payload: { streamId: "s-1", nodes, edges: [], isIncremental: true, sequenceNumber: 1 },
  } as Parameters<typeof createMessage>[0]);
  from.raw.send(JSON.stringify(signObject(message, from.id.secretKey)));
  await until(
    () => from.raw.controls().some((c) => c.payload["id"] === message.id),
    `answer to ${message.id}`,
  );
  return message.id;
}
