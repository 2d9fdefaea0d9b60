/**
 * `recipient_unknown` on a hub link: a peer's `ocp.fed.event` whose
 * notification names an agent that is not one of the receiving hub's own
 * (never registered there, or another organisation's) is refused with that
 * code, audited and delivered to no one, as HUB_ERROR_CODES says. Two real
 * hubs' worth of set-up: globex's hub with a malicious peer on a raw socket.
 */
import {
  type AgentIdentity,
  createAgentProfile,
  generateIdentity,
  signedMessage,
} from "@ocp/a2a-ocp-messaging";
import { HUB_ERROR_CODES } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WebSocket } from "ws";
import { evilPeer, hubIdentity, type Org, peerEntry, startOrg } from "./federation-support.js";
import { until } from "./support.js";

vi.setConfig({ testTimeout: 60_000 });

const orgs: Org[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const org of orgs.splice(0).reverse()) await org.close();
});

/** A notification from `hub` to `to` carrying `author`'s signed publish, as a peer's hub forwards it. */
function notification(hub: AgentIdentity, author: AgentIdentity, to: string): string {
  const publish = signedMessage(
    author,
    {
      type: "ocp.event.publish",
      to: "broadcast",
      payload: {
        eventId: `ev-${globalThis.crypto.randomUUID()}`,
        eventType: "build.failed",
        eventData: {},
        timestamp: new Date().toISOString(),
        source: author.id,
      },
    },
    { backend: nativeEd25519 },
  );
  const note = signedMessage(
    hub,
    {
      type: "ocp.event.notification",
      to,
      payload: { subscriptionId: "sub-1", event: publish.payload, ocpPublish: publish },
    },
    { backend: nativeEd25519 },
  );
  return JSON.stringify(note);
}

describe("federation: an event for none of the hub's agents", () => {
  it("is refused recipient_unknown (audited, delivered to no one) when it names an unseen agent or another hub's; one to its own agent is delivered", async () => {
    expect(HUB_ERROR_CODES.recipient_unknown).toContain("a federated event");
    const globexKey = hubIdentity("globex");
    const evilKey = hubIdentity("evil");
    const globex = await startOrg("globex", globexKey, [
      { ...peerEntry("evil", evilKey), events: true },
    ]);
    orgs.push(globex);
    const bob = await globex.agent("bob");
    const evil = await evilPeer(globex.federation.url!, evilKey, sockets);
    const mallory = generateIdentity("a2a://evil/mallory");
    const card = createAgentProfile(mallory, { extra: { visibility: "public" } }, nativeEd25519);
    evil.send("ocp.fed.agents", { cards: [card] });
    await until(() => globex.federation.registry.get(mallory.id) !== undefined, "mallory vouched");

    // An agent of globex's namespace that never registered there.
    evil.send("ocp.fed.event", { raw: notification(evilKey, mallory, "a2a://globex/nobody") });
    await until(() => evil.rejected("recipient_unknown").length === 1, "recipient_unknown");
    // The peer's own agent: not one of globex's either.
    evil.send("ocp.fed.event", { raw: notification(evilKey, mallory, mallory.id) });
    await until(() => evil.rejected("recipient_unknown").length === 2, "second recipient_unknown");
    const reasons = evil.rejected("recipient_unknown").map((f) => String(f.payload["reason"]));
    expect(reasons.join(" ")).toContain("is not an agent of this hub");
    expect(
      globex.audit.entries().filter((e) => e.code === "recipient_unknown").length,
    ).toBeGreaterThanOrEqual(2);

    // The control: the same notification to Bob, globex's own agent, is delivered (and only it).
    evil.send("ocp.fed.event", { raw: notification(evilKey, mallory, bob.id.id) });
    await until(() => bob.raw.delivered().length === 1, "the notification to bob");
    const delivered = JSON.parse(bob.raw.delivered()[0]!) as { type: string; to: string };
    expect(delivered).toMatchObject({ type: "ocp.event.notification", to: bob.id.id });
  });
});
