/**
 * Issue 44, `federation.observe(listener)`: what a dashboard sees of a
 * federation, with two real hubs linked in one process — each link going up
 * and down, each crossing and refusal tagged with its peer and direction,
 * the payload only of messages the hub verified, and a listener that throws
 * stopping neither the others nor the link.
 */
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it, vi } from "vitest";
import type { FederationEvent } from "../src/federation/index.js";
import { closedAfterEach, hubIdentity, peerEntry, startOrg } from "./federation-support.js";
import { node, until } from "./support.js";

vi.setConfig({ testTimeout: 60_000 });

const { orgs } = closedAfterEach();

const crossings = (events: FederationEvent[]) =>
  events.flatMap((e) => (e.kind === "crossing" ? [e] : []));

describe("federation.observe (issue 44)", () => {
  it("shows link up and down and each crossing with its peer, direction, outcome, code and the payload of verified messages; a listener that throws stops neither the others nor the link", async () => {
    const acmeKey = hubIdentity("acme");
    const globexKey = hubIdentity("globex");
    const acme = await startOrg("acme", acmeKey, [peerEntry("globex", globexKey)]);
    orgs.push(acme);
    const seenAtAcme: FederationEvent[] = [];
    acme.federation.observe(() => {
      throw new Error("a broken listener");
    });
    acme.federation.observe((event) => seenAtAcme.push(event));
    const globex = await startOrg(
      "globex",
      globexKey,
      [peerEntry("acme", acmeKey, acme.federation.url)],
      { listen: false },
    );
    orgs.push(globex);
    const seenAtGlobex: FederationEvent[] = [];
    const stop = globex.federation.observe((event) => seenAtGlobex.push(event));
    await until(() => seenAtAcme.some((e) => e.kind === "link" && e.open), "acme's link up");
    expect(seenAtAcme.find((e) => e.kind === "link")).toMatchObject({
      peer: globexKey.id,
      open: true,
    });

    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched");
    await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
    const send = (nodes: unknown[]) => {
      const message = createMessage({
        type: "ocp.knowledge.stream",
        from: alice.id.id,
        to: bob.id.id,
        payload: { streamId: "s", nodes, edges: [], isIncremental: true, sequenceNumber: 1 },
      } as Parameters<typeof createMessage>[0]);
      alice.raw.send(JSON.stringify(signObject(message, alice.id.secretKey)));
      return message.id;
    };
    const fix = send([node(alice.id.id, "fix-public", { visibility: "public" })]);
    const secret = send([node(alice.id.id, "workspace-secret", { visibility: "workspace" })]);
    await until(
      () => crossings(seenAtGlobex).some((e) => e.id === fix),
      "globex saw the fix arrive",
    );
    await until(() => crossings(seenAtAcme).some((e) => e.id === secret), "acme's refusal");

    const out = crossings(seenAtAcme).find((e) => e.id === fix)!;
    expect(out).toMatchObject({
      peer: globexKey.id,
      direction: "out",
      outcome: "crossed",
      from: alice.id.id,
      to: [globexKey.id],
      type: "ocp.knowledge.stream",
    });
    expect(JSON.stringify(out.payload)).toContain("fix-public");
    const refused = crossings(seenAtAcme).find((e) => e.id === secret)!;
    expect(refused).toMatchObject({
      peer: globexKey.id,
      direction: "out",
      outcome: "refused",
      to: [bob.id.id],
      code: "federation_withheld",
    });
    const arrived = crossings(seenAtGlobex).find((e) => e.id === fix)!;
    expect(arrived).toMatchObject({
      peer: acmeKey.id,
      direction: "in",
      outcome: "crossed",
      from: alice.id.id,
      to: [bob.id.id],
    });
    expect(JSON.stringify(arrived.payload)).toContain("fix-public");
    expect(crossings(seenAtGlobex).some((e) => e.id === secret)).toBe(false);

    stop();
    const before = seenAtGlobex.length;
    await globex.close();
    await until(
      () => seenAtAcme.some((e) => e.kind === "link" && !e.open),
      "acme saw the link go down",
    );
    expect(seenAtGlobex.length).toBe(before); // unsubscribed: nothing more
  });
});
