/**
 * Federation shuts the door to a peer organisation's agent ids whatever the
 * embedder passes: the hub asks its store at every registration
 * (`HubStore.refuses`), and the federated store refuses an id under a
 * peer's prefixes, with no `allow` predicate given, and on top of one.
 */
import {
  type AgentIdentity,
  type AgentProfile,
  createAgentProfile,
  generateIdentity,
} from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { rawAgent, tempDir, testHubOptions } from "@ocp/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { parseFederationConfig } from "../src/federation/config.js";
import { Federation } from "../src/federation/federation.js";
import { OCPHub } from "../src/index.js";
import { hubIdentity, peerEntry } from "./federation-support.js";

vi.setConfig({ testTimeout: 30_000 });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** acme's hub federated with globex (agents `a2a://globex/…`), built with `allow` only when given. */
async function acmeHub(allow?: (profile: AgentProfile) => boolean): Promise<OCPHub> {
  const temp = tempDir("ocp-fed-admission-");
  const base = testHubOptions(temp.dir);
  const config = parseFederationConfig({
    listen: { host: "127.0.0.1", port: 0 },
    peers: [peerEntry("globex", hubIdentity("globex"))],
  });
  const federation = new Federation({ config, dbPath: base.dbPath, onError: () => {} });
  const hub = await OCPHub.start({
    ...base,
    identity: hubIdentity("acme"),
    store: federation.store,
    ...(allow === undefined ? {} : { allow }),
  });
  await federation.start(hub);
  cleanups.push(async () => {
    await federation.close();
    await hub.close();
    temp.cleanup();
  });
  return hub;
}

/** Announces `who` at `url` and resolves with how the hub closed the connection. */
function closedFor(url: string, who: AgentIdentity): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
    ws.on("error", reject);
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; payload: { nonce: string } };
      if (frame.type !== "ocp.connection.ack") return;
      const profile = createAgentProfile(who, {}, nativeEd25519);
      ws.send(buildAnnouncement(who, profile, frame.payload.nonce, undefined, nativeEd25519));
    });
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }));
  });
}

describe("federation: a peer organisation's ids cannot register here, whatever the embedder passes", () => {
  it("refuses an id under a peer's prefix on a hub built with no allow predicate", async () => {
    const hub = await acmeHub();
    const impostor = generateIdentity("a2a://globex/bob");
    expect(await closedFor(hub.url, impostor)).toEqual({
      code: 4002,
      reason: `${impostor.id} is not admitted (a peer organisation's agent)`,
    });
    // The refusal is the door, not a broken hub: acme's own agents still register.
    const alice = generateIdentity("a2a://acme/alice");
    const raw = await rawAgent(hub.url, alice, 5_000);
    expect(hub.connectedAgents()).toEqual([alice.id]);
    raw.close();
  });

  it("refuses it too when the embedder's own allow predicate admits everyone", async () => {
    const hub = await acmeHub(() => true);
    const impostor = generateIdentity("a2a://globex/mallory");
    expect((await closedFor(hub.url, impostor)).code).toBe(4002);
  });

  it("keeps the embedder's own allow predicate on top of the federation's rule", async () => {
    const hub = await acmeHub((profile) => profile.id !== "a2a://acme/carol");
    const carol = generateIdentity("a2a://acme/carol");
    expect(await closedFor(hub.url, carol)).toEqual({
      code: 4002,
      reason: `${carol.id} is not admitted`,
    });
    (await rawAgent(hub.url, generateIdentity("a2a://acme/dave"), 5_000)).close();
  });
});
