/** Two organisations' hubs, each real (its own SQLite file, sockets), linked by federation. */
import {
  type AgentIdentity,
  type AuditEntry,
  generateIdentity,
  MemoryAuditLog,
} from "@ocp/a2a-ocp-messaging";
import { type RawAgent, rawAgent, tempDir, testHubOptions } from "@ocp/testkit";
import { afterEach } from "vitest";
import { WebSocket } from "ws";
import { challenge, hello } from "../src/federation/auth.js";
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

/** A raw hub-link frame as a peer receives it. */
export interface PeerFrame {
  type: string;
  payload: Record<string, unknown>;
}

/** A peer hub fixture on a raw socket: it passes the handshake with its real key, then says what a test makes it say. */
export interface EvilPeer {
  send(type: string, payload: unknown): void;
  /** Every frame the hub sent it after the handshake, oldest first. */
  frames(): PeerFrame[];
  /** The `ocp.fed.reject` frames with `code`. */
  rejected(code: string): PeerFrame[];
}

/** Opens an {@link EvilPeer} link to `url` signed by `key`; the socket is pushed on `sockets` for the test's clean-up. */
export async function evilPeer(
  url: string,
  key: AgentIdentity,
  sockets: WebSocket[],
): Promise<EvilPeer> {
  const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
  sockets.push(ws);
  const frames: PeerFrame[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on("error", reject);
    ws.on("message", (data) => {
      const f = JSON.parse(data.toString()) as PeerFrame;
      if (f.type === "ocp.connection.ack") {
        ws.send(hello(key, String(f.payload["nonce"]), challenge()));
      } else if (f.type === "ocp.connection.registered") resolve();
      else frames.push(f);
    });
  });
  return {
    send: (type, payload) => ws.send(JSON.stringify({ type, payload })),
    frames: () => [...frames],
    rejected: (code) =>
      frames.filter((f) => f.type === "ocp.fed.reject" && f.payload["code"] === code),
  };
}

/**
 * The organisations and raw peer sockets a test opens, pushed by the test:
 * after each test of the calling file the sockets are cut and the
 * organisations closed, newest first.
 */
export function closedAfterEach(): { orgs: Org[]; sockets: WebSocket[] } {
  const orgs: Org[] = [];
  const sockets: WebSocket[] = [];
  afterEach(async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    for (const org of orgs.splice(0).reverse()) await org.close();
  });
  return { orgs, sockets };
}
