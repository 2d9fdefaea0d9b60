/** Two organisations' hubs, each real (its own SQLite file, sockets), linked by federation. */
import {
  type AgentIdentity,
  type AuditEntry,
  generateIdentity,
  MemoryAuditLog,
} from "@ocp/a2a-ocp-messaging";
import { type RawAgent, rawAgent, tempDir, testHubOptions } from "@ocp/testkit";
import { type FederationConfig, parseFederationConfig } from "../src/federation/config.js";
import { Federation } from "../src/federation/federation.js";
import { OCPHub } from "../src/index.js";

/** An in-memory audit log that also keeps what was appended, for synchronous waits. */
export class RecordingAudit extends MemoryAuditLog {
  readonly appended: AuditEntry[] = [];
  override append(entry: AuditEntry): void {
    this.appended.push(entry);
    super.append(entry);
  }
  entries(): AuditEntry[] {
    return this.appended;
  }
}

export interface Org {
  name: string;
  hubIdentity: AgentIdentity;
  hub: OCPHub;
  federation: Federation;
  audit: RecordingAudit;
  dir: string;
  agent(name: string, visibility?: string): Promise<{ id: AgentIdentity; raw: RawAgent }>;
  close(): Promise<void>;
}

/** A hub identity for `name`'s organisation. */
export function hubIdentity(name: string): AgentIdentity {
  return generateIdentity(`a2a://${name}-hub`);
}

/** A federate file's peer entry for `identity`'s hub (agents `a2a://<name>/…`). */
export function peerEntry(name: string, identity: AgentIdentity, url?: string, queries = false) {
  return {
    hubId: identity.id,
    publicKey: Buffer.from(identity.publicKey).toString("base64"),
    agents: [`a2a://${name}/`],
    queries,
    ...(url === undefined ? {} : { url }),
  };
}

/** Starts `name`'s hub with federation `config` (listening for hub links on a free port unless `listen: false`). */
export async function startOrg(
  name: string,
  identity: AgentIdentity,
  peers: unknown[],
  options: { dir?: string; listen?: boolean; budget?: { messages?: number; bytes?: number } } = {},
): Promise<Org> {
  const temp = options.dir === undefined ? tempDir(`ocp-fed-${name}-`) : undefined;
  const dir = options.dir ?? temp!.dir;
  const config: FederationConfig = parseFederationConfig({
    ...(options.listen === false ? {} : { listen: { host: "127.0.0.1", port: 0 } }),
    peers,
  });
  const base = testHubOptions(dir);
  const federation = new Federation({
    config,
    dbPath: base.dbPath,
    onError: (error) => {
      if (process.env["FED_DEBUG"]) console.error(name, error);
    },
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  });
  const audit = new RecordingAudit();
  const hub = await OCPHub.start({
    ...base,
    identity,
    audit,
    store: federation.store,
    allow: federation.allow,
  });
  await federation.start(hub);
  const raws: RawAgent[] = [];
  return {
    name,
    hubIdentity: identity,
    hub,
    federation,
    audit,
    dir,
    async agent(agentName, visibility = "public") {
      const id = generateIdentity(`a2a://${name}/${agentName}`);
      const raw = await rawAgent(hub.url, id, 10_000, { profile: { visibility } });
      raws.push(raw);
      return { id, raw };
    },
    async close() {
      for (const raw of raws) raw.close();
      await federation.close();
      await hub.close();
      temp?.cleanup();
    },
  };
}
