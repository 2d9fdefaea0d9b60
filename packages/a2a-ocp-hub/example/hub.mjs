// A hub on a SQLite file and three agents: a durable direct message, an event
// routed by subscription, a `team` knowledge node kept from another team, and
// a message for an offline agent that survives a restart of the hub.
// Run: pnpm build && node example/hub.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";

const dir = mkdtempSync(join(tmpdir(), "ocp-hub-example-"));
const dbPath = join(dir, "team.sqlite");
// The operator's allow-list grants each agent its team (`team` visibility);
// an agent's own profile cannot claim one.
const member = (name, team) => {
  const identity = generateIdentity(`a2a://${name}`);
  return { identity, profile: createAgentProfile(identity), team };
};
const alice = member("alice", "backend");
const bob = member("bob", "backend");
const carol = member("carol", "sales");
const allowedProfiles = [alice, bob, carol].map(({ profile, team }) => ({ profile, team }));
let hub = await OCPHub.start({ dbPath, allowedProfiles }); // 127.0.0.1, a free port
const connect = ({ identity, profile }, lastSeq = 0) =>
  HubClient.connect({ url: hub.url, identity, profile, lastSeq });
const next = (client) => new Promise((resolve) => client.once("message", resolve));
const show = (who, { message, seq }) =>
  console.log(`${who} got ${seq === undefined ? "live" : `#${seq}`} ${message.type}`);

const a = await connect(alice);
const b = await connect(bob);
let c = await connect(carol);

// Direct: durable, committed to SQLite before the ack.
let got = next(b);
const direct = await a.send({ type: "ocp.custom.hello", to: bob.identity.id, payload: {} });
console.log("direct ack: durable", direct.durable, "recipients", direct.recipients);
show("bob", await got);

// Events: only agents whose subscription matches receive a publication.
await b.send({
  type: "ocp.event.subscribe",
  to: "broadcast",
  payload: { subscriptionId: "sub-1", eventTypes: ["code.*"] },
});
got = next(b);
const event = await a.send({
  type: "ocp.event.publish",
  to: "broadcast",
  payload: {
    eventId: "evt-1",
    eventType: "code.deployed",
    eventData: { service: "api" },
    timestamp: new Date().toISOString(),
    source: alice.identity.id,
  },
});
console.log("event ack: recipients", event.recipients);
show("bob", await got);

// §8.5: a `team` node goes to alice's team only; carol (sales) is left out.
got = next(b);
const stream = await a.send({
  type: "ocp.knowledge.stream",
  to: "broadcast",
  payload: {
    streamId: "s-1",
    isIncremental: true,
    sequenceNumber: 1,
    nodes: [
      {
        id: "node-1",
        type: "code.solution",
        title: "Rotate the signing key",
        data: {},
        confidence: 0.9,
        timestamp: new Date().toISOString(),
        createdBy: alice.identity.id,
        tags: ["security"],
        visibility: "team",
      },
    ],
  },
});
console.log("team stream ack: recipients", stream.recipients, "excluded", stream.excluded);
show("bob", await got);

// Carol leaves; a message for her is committed; the hub restarts on the same file.
const carolSeq = c.lastSeq;
await c.close();
await a.send({ type: "ocp.custom.hello", to: carol.identity.id, payload: { text: "welcome" } });
await Promise.all([a.close(), b.close()]);
await hub.close();
hub = await OCPHub.start({ dbPath, allowedProfiles });
console.log("hub restarted on the same SQLite file");
c = new HubClient({
  url: hub.url,
  identity: carol.identity,
  profile: carol.profile,
  lastSeq: carolSeq,
});
got = next(c);
await c.connect();
show("carol", await got);
console.log(
  "stats:",
  JSON.stringify({ known: hub.stats().known, connected: hub.stats().connected }),
);

await c.close();
await hub.close();
rmSync(dir, { recursive: true, force: true });
