/**
 * A hub the federate file does not list chooses the id it claims, and may
 * dial as often as it likes: the Federation view counts its refused link
 * attempts on one line (`strangers`) and never lists them as crossings or
 * under a peer, so a flood of them cannot push real rows out of the list.
 */
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import type { FederationCrossingEvent, ObservableFederation } from "@ocp/a2a-ocp-messaging/observe";
import { until } from "@ocp/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FederationBook } from "../src/federation.js";
import { type Org, peerEntry, startOrg } from "./federation-support.js";

vi.setConfig({ testTimeout: 60_000 });

const orgs: Org[] = [];
afterEach(async () => {
  for (const org of orgs.splice(0).reverse()) await org.close();
});

const POLICY = { showAllVisibilities: false, defaultVisibility: "team" };
const LISTED = "a2a://globex-hub";

/** A federation that lists globex and emits what the test pushes. */
function fakeFederation(): ObservableFederation {
  return {
    links: () => [{ hubId: LISTED, open: true, agents: 1 }],
    observe: () => () => {},
  };
}

const crossed = (at: number): FederationCrossingEvent => ({
  kind: "crossing",
  at,
  peer: LISTED,
  direction: "out",
  outcome: "crossed",
  id: `m-${at}`,
  from: "a2a://acme/alice",
  to: ["a2a://globex/bob"],
  type: "ocp.knowledge.stream",
});

const strangerHello = (at: number, claimed: string): FederationCrossingEvent => ({
  kind: "crossing",
  at,
  peer: claimed,
  direction: "in",
  outcome: "refused",
  from: claimed,
  to: ["a2a://acme-hub"],
  code: "federation_unknown_peer",
  reason: "not in the federate file",
});

describe("the Federation view and hubs not in the federate file", () => {
  it("a flood of refused hellos under claimed ids (a listed peer's among them) is one count, and the real crossing stays listed", () => {
    const book = new FederationBook(fakeFederation(), POLICY, { crossings: 5, queue: 10_000 });
    book.push(crossed(1));
    for (let i = 0; i < 500; i++)
      book.push(strangerHello(2 + i, i % 2 === 0 ? LISTED : `a2a://x${i}`));
    const delta = book.flush();
    expect(delta?.crossings.map((c) => c.id)).toEqual(["m-1"]);
    const view = book.view();
    expect(view.crossings.map((c) => c.id)).toEqual(["m-1"]);
    expect(view.strangers).toEqual({
      refused: 500,
      refusedByCode: { federation_unknown_peer: 500 },
      lastClaimed: "a2a://x499",
      lastAt: 501,
    });
    // A claimed id is not a peer: globex's own counters are untouched.
    expect(view.peers).toEqual([
      expect.objectContaining({ hubId: LISTED, refused: 0, forwarded: 1, refusedByCode: {} }),
    ]);
  });

  it("a listed peer's refusals after it authenticated stay rows under that peer", () => {
    const book = new FederationBook(fakeFederation(), POLICY, { crossings: 5, queue: 100 });
    book.push({ ...crossed(1), direction: "in", outcome: "refused", code: "federation_spoofed" });
    book.flush();
    const view = book.view();
    expect(view.crossings.map((c) => c.code)).toEqual(["federation_spoofed"]);
    expect(view.peers[0]).toMatchObject({ refused: 1, refusedByCode: { federation_spoofed: 1 } });
    expect(view.strangers.refused).toBe(0);
  });

  it("a real hub that acme does not list dials it: counted as a stranger, never a crossing or a peer", async () => {
    const acmeKey = generateIdentity("a2a://acme-hub");
    const initechKey = generateIdentity("a2a://initech-hub");
    const globexKey = generateIdentity("a2a://globex-hub");
    const acme = await startOrg("acme", acmeKey, [peerEntry("globex", globexKey)], true);
    orgs.push(acme);
    const book = new FederationBook(acme.federation, POLICY, { crossings: 200, queue: 10_000 });
    const stop = acme.federation.observe((event) => book.push(event));
    const initech = await startOrg(
      "initech",
      initechKey,
      [peerEntry("acme", acmeKey, acme.federation.url)],
      false,
    );
    orgs.push(initech);
    await until(() => {
      book.flush();
      return book.view().strangers.refused >= 1;
    }, "initech's refused hello");
    stop();
    const view = book.view();
    expect(view.strangers).toMatchObject({
      refusedByCode: { federation_unknown_peer: view.strangers.refused },
      lastClaimed: initechKey.id,
    });
    expect(view.crossings).toEqual([]);
    expect(view.peers).toEqual([
      expect.objectContaining({ hubId: globexKey.id, refused: 0, refusedByCode: {} }),
    ]);
    expect(initech.federation.links()).toEqual([{ hubId: acmeKey.id, open: false, agents: 0 }]);
  });
});
