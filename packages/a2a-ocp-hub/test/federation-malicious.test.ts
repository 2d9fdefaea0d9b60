/**
 * Issue 44, a malicious peer hub: a fixture with a valid hub key listed in
 * globex's federate file, speaking the hub-to-hub frames on a raw socket. It
 * forges an acme agent's message, claims an acme and a globex agent id as
 * its own, replays, injects a team node, and floods: every one is refused
 * with a named code and audited, and the honest acme link keeps working.
 */
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  generateIdentity,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { describe, expect, it, vi } from "vitest";
import {
  closedAfterEach,
  evilPeer,
  hubIdentity,
  peerEntry,
  startOrg,
} from "./federation-support.js";
import { node, until } from "./support.js";

vi.setConfig({ testTimeout: 60_000 });

const { orgs, sockets } = closedAfterEach();

function signed(from: AgentIdentity, to: string, nodes: unknown[], id?: string) {
  const message = createMessage({
    type: "ocp.knowledge.stream",
    from: from.id,
    to,
    payload: { streamId: "s", nodes, edges: [], isIncremental: true, sequenceNumber: 1 },
  } as Parameters<typeof createMessage>[0]);
  return JSON.stringify(
    signObject(id === undefined ? message : { ...message, id }, from.secretKey),
  );
}

describe("federation: a malicious peer hub", () => {
  it("forging, spoofing ids, replaying, injecting a team node and flooding are refused with named codes, audited, and the honest link is unaffected", async () => {
    const acmeKey = hubIdentity("acme");
    const globexKey = hubIdentity("globex");
    const evilKey = hubIdentity("evil");
    const acme = await startOrg("acme", acmeKey, [peerEntry("globex", globexKey)]);
    orgs.push(acme);
    const globex = await startOrg(
      "globex",
      globexKey,
      [peerEntry("acme", acmeKey, acme.federation.url), peerEntry("evil", evilKey)],
      { budget: { messages: 12 } },
    );
    orgs.push(globex);
    await until(() => globex.federation.links()[0]!.open, "the honest link");
    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
    await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched");
    const evil = await evilPeer(globex.federation.url!, evilKey, sockets);
    const rejected = (code: string) =>
      evil.frames().filter((a) => a.type === "ocp.fed.reject" && a.payload["code"] === code);
    // Claims: acme's alice (her real signed card), globex's own bob, then its own mallory.
    const mallory = generateIdentity("a2a://evil/mallory");
    const aliceCard = createAgentProfile(
      alice.id,
      { extra: { visibility: "public" } },
      nativeEd25519,
    );
    const bobCard = createAgentProfile(bob.id, { extra: { visibility: "public" } }, nativeEd25519);
    const malloryCard = createAgentProfile(
      mallory,
      { extra: { visibility: "public" } },
      nativeEd25519,
    );
    const squatter = generateIdentity("a2a://evil/../acme/alice"); // inside its prefix by text only
    evil.send("ocp.fed.agents", {
      cards: [aliceCard, bobCard, malloryCard, createAgentProfile(squatter, {}, nativeEd25519)],
    });
    await until(() => rejected("federation_spoofed").length >= 2, "the spoofed cards refused");
    expect(globex.federation.registry.get(alice.id.id)?.peer).toBe(acmeKey.id);
    expect(globex.federation.registry.get(mallory.id)?.peer).toBe(evilKey.id);
    // A message in alice's name (signed with another key): not an agent it vouched for.
    const forger = generateIdentity(alice.id.id);
    evil.send("ocp.fed.message", {
      seq: 1,
      raw: signed(forger, bob.id.id, [node(alice.id.id, "forged-1", { visibility: "public" })]),
    });
    // Mallory writing a node in alice's name, unsigned by alice: not_author.
    evil.send("ocp.fed.message", {
      seq: 2,
      raw: signed(mallory, bob.id.id, [node(alice.id.id, "forged-2", { visibility: "public" })]),
    });
    // A team node: never accepted across.
    evil.send("ocp.fed.message", {
      seq: 3,
      raw: signed(mallory, bob.id.id, [node(mallory.id, "team-1", { visibility: "team" })]),
    });
    // An honest message, its resend (same seq: acked again, applied once), and a replay (new seq).
    const honest = signed(mallory, bob.id.id, [
      node(mallory.id, "evil-public", { visibility: "public" }),
    ]);
    evil.send("ocp.fed.message", { seq: 4, raw: honest });
    evil.send("ocp.fed.message", { seq: 4, raw: honest });
    evil.send("ocp.fed.message", { seq: 5, raw: honest });
    // A message alice really signed, passed through the wrong hub: not its agent either.
    const captured = signed(alice.id, bob.id.id, [
      node(alice.id.id, "captured", { visibility: "public" }),
    ]);
    evil.send("ocp.fed.message", { seq: 6, raw: captured });
    evil.send("ocp.fed.nonsense", {});
    await until(() => rejected("replay_detected").length === 1, "the replay refused");
    await until(() => rejected("federation_frame_invalid").length === 1, "the frames after it");
    expect(rejected("federation_spoofed").map((r) => r.payload["seq"])).toEqual(
      expect.arrayContaining([1, 6]),
    );
    expect(rejected("not_author").map((r) => r.payload["seq"])).toEqual([2]);
    expect(rejected("federation_withheld").map((r) => r.payload["seq"])).toEqual([3]);
    expect(
      evil
        .frames()
        .filter((a) => a.type === "ocp.fed.ack")
        .map((a) => a.payload["seq"]),
    ).toEqual([4, 4]);
    await until(
      () => rejected("federation_frame_invalid").length === 1,
      "the unknown frame refused",
    );
    // Flooding past its budget (12 messages per window).
    for (let seq = 10; seq < 40; seq++) {
      evil.send("ocp.fed.message", {
        seq,
        raw: signed(mallory, bob.id.id, [
          node(mallory.id, `flood-${seq}`, { visibility: "public" }),
        ]),
      });
    }
    await until(() => rejected("federation_over_budget").length > 0, "the flood refused");
    // Its budget is the organisation's, not the link's: dialling again does not refill it.
    const again = await evilPeer(globex.federation.url!, evilKey, sockets);
    again.send("ocp.fed.message", {
      seq: 99,
      raw: signed(mallory, bob.id.id, [node(mallory.id, "after-redial", { visibility: "public" })]),
    });
    await until(
      () => again.frames().some((a) => a.payload["code"] === "federation_over_budget"),
      "the redialled link still over budget",
    );
    // The honest link is unaffected.
    const after = createMessage({
      type: "ocp.knowledge.stream",
      from: alice.id.id,
      to: bob.id.id,
      payload: {
        streamId: "s",
        nodes: [node(alice.id.id, "after-the-attack", { visibility: "public" })],
        edges: [],
        isIncremental: true,
        sequenceNumber: 2,
      },
    } as Parameters<typeof createMessage>[0]);
    alice.raw.send(JSON.stringify(signObject(after, alice.id.secretKey)));
    await until(
      () => bob.raw.delivered().some((d) => d.includes("after-the-attack")),
      "alice's message after the attack",
    );
    const delivered = bob.raw.delivered();
    for (const never of ["forged-1", "forged-2", "team-1", "captured", "after-redial"])
      expect(delivered.some((d) => d.includes(never))).toBe(false);
    expect(delivered.filter((d) => d.includes("evil-public")).length).toBe(1);
    // Audited at globex, each with its code.
    const codes = new Set(
      globex.audit
        .entries()
        .filter((e) => e.event === "refused")
        .map((e) => e.code),
    );
    for (const code of [
      "federation_spoofed",
      "not_author",
      "federation_withheld",
      "replay_detected",
      "federation_over_budget",
      "federation_frame_invalid",
    ]) {
      expect(codes).toContain(code);
    }
  });
});
