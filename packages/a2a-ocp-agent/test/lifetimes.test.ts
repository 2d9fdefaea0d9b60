import {
  generateIdentity,
  KNOWN_MESSAGE_TYPES,
  type KnownMessageType,
} from "@ocp/a2a-ocp-messaging";
import { MAX_TTL_SECONDS } from "@ocp/a2a-ocp-messaging/internal";
import { afterEach, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { MESSAGE_LIFETIMES, messageTtl } from "../src/lifetimes.js";
import { MAX_VOTING_PERIOD_SECONDS, VOTING_TTL_GRACE_SECONDS } from "../src/limits.js";
import { MemoryNetwork } from "../src/link.js";
import { node, until, within } from "./support.js";

interface Sent {
  type: KnownMessageType;
  ttl?: unknown;
  payload: Record<string, unknown>;
}

let agents: OCPAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
});

/** A team on one in-memory network, recording every message its agents send. */
function recordingTeam(names: string[]): { team: OCPAgent[]; sent: Sent[] } {
  const net = new MemoryNetwork();
  const sent: Sent[] = [];
  const team = names.map((name) => {
    const identity = generateIdentity(`a2a://${name}`);
    const link = net.link(identity.id, identity.publicKey);
    const send = link.send;
    link.send = (message) => {
      sent.push(structuredClone(message) as unknown as Sent);
      return send(message);
    };
    return new OCPAgent({ identity, link }).start();
  });
  agents = team;
  return { team, sent };
}

describe("message lifetimes", () => {
  it("every message the runtime sends carries the ttl its kind's lifetime gives", async () => {
    const { team, sent } = recordingTeam(["alice", "bob", "carol"]);
    const [alice, bob, carol] = team as [OCPAgent, OCPAgent, OCPAgent];
    // Knowledge: subscribe, stream, control, update, unsubscribe.
    const streamId = await bob.subscribe(alice.id, { deliveryMode: "push" });
    const shared = node({ createdBy: alice.id, title: "auth: sessions" });
    await alice.streamKnowledge([shared]);
    await until(() => bob.node(shared.id) !== undefined, "the stream");
    await bob.controlStream(alice.id, streamId, "pause");
    await bob.controlStream(alice.id, streamId, "resume");
    await alice.deleteKnowledge({ nodes: [shared.id] });
    await bob.unsubscribe(alice.id, streamId);
    // Sync, both exchanges, with a conflict (knowledge and sync conflict reports).
    const edited = node({ createdBy: alice.id, title: "auth: JWT", ocpEditors: [bob.id] });
    await alice.streamKnowledge([edited]);
    await bob.syncKnowledge(alice.id);
    await alice.streamKnowledge([{ ...edited, title: "auth: OAuth" }]);
    await bob.streamKnowledge([{ ...edited, title: "auth: SAML" }]);
    await carol.beacon({ status: "working", availability: "available" });
    await carol.updateAwareness({ status: "blocked" });
    await until(() => alice.presence.get(carol.id)?.status === "blocked", "carol's presence");
    await bob.sync(alice.id);
    // Collective query, consensus (achieved and timed out), awareness query, events.
    await within(alice.collectiveQuery("auth", { timeout: 4_500, minResponses: 2 }));
    const decided = within(bob.once("consensus"));
    const proposalId = await alice.propose({
      topic: "t",
      proposal: {},
      votingPeriod: 60,
      requiredVotes: 1,
      votingRule: "majority",
    });
    await until(() => sent.some((m) => m.type === "ocp.consensus.propose"), "the proposal");
    await within(bob.once("proposal"));
    await bob.vote(proposalId, "approve");
    await decided;
    const timedOut = within(bob.once("consensus"));
    await alice.propose({
      topic: "u",
      proposal: {},
      votingPeriod: 0.2,
      requiredVotes: 3,
      votingRule: "majority",
    });
    await timedOut;
    await alice.queryAwareness(undefined, carol.id);
    const esub = await bob.subscribeEvents(["code.*"]);
    await alice.publishEvent("code.deployed", {});
    await bob.unsubscribeEvents(esub);

    // Only the hub sends notifications, only the A2A layer negotiates capabilities.
    const notSent = ["ocp.event.notification", "capability.announce", "capability.confirm"];
    const types = new Set(sent.map((m) => m.type));
    expect([...types].sort()).toEqual(
      KNOWN_MESSAGE_TYPES.filter((t) => !notSent.includes(t)).sort(),
    );
    for (const m of sent) {
      const lifetime = MESSAGE_LIFETIMES[m.type];
      expect(Number.isInteger(m.ttl), `${m.type} carries an integer ttl`).toBe(true);
      const ttl = m.ttl as number;
      expect(ttl).toBeGreaterThanOrEqual(1);
      expect(ttl).toBeLessThanOrEqual(MAX_TTL_SECONDS);
      if ("seconds" in lifetime) {
        expect(ttl, m.type).toBe(lifetime.seconds);
      } else if (m.type === "ocp.consensus.propose") {
        const period = m.payload["votingPeriod"] as number;
        expect(ttl).toBe(Math.ceil(period) + VOTING_TTL_GRACE_SECONDS);
      } else if (m.type === "ocp.consensus.vote") {
        expect(ttl).toBeGreaterThan(60);
        expect(ttl).toBeLessThanOrEqual(60 + VOTING_TTL_GRACE_SECONDS);
      } else {
        // The collective query and its responses: at most the query's timeout (4.5 s → 5 s).
        expect(ttl).toBeLessThanOrEqual(5);
        if (m.type === "ocp.collective.query") expect(ttl).toBe(5);
      }
    }
  });

  it("a proposal lives until its deadline, capped at MAX_TTL_SECONDS; a longer voting period is refused", async () => {
    const { team, sent } = recordingTeam(["alice", "bob"]);
    const [alice] = team as [OCPAgent, OCPAgent];
    const base = { topic: "t", proposal: {}, requiredVotes: 2, votingRule: "majority" as const };
    expect(MAX_VOTING_PERIOD_SECONDS).toBe(MAX_TTL_SECONDS);
    await alice.propose({ ...base, votingPeriod: MAX_VOTING_PERIOD_SECONDS });
    expect(sent.at(-1)).toMatchObject({ type: "ocp.consensus.propose", ttl: MAX_TTL_SECONDS });
    await expect(
      alice.propose({ ...base, votingPeriod: MAX_VOTING_PERIOD_SECONDS + 1 }),
    ).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringContaining("longer than a message may live"),
    });
    expect(sent).toHaveLength(1);
  });

  it("messageTtl: a deadline kind needs its deadline, and its ttl stays within 1 s and MAX_TTL_SECONDS", () => {
    const now = 1_000_000;
    expect(() => messageTtl("ocp.consensus.vote", now)).toThrow(TypeError);
    expect(messageTtl("ocp.collective.query", now, now + 4_001)).toBe(5);
    expect(messageTtl("ocp.collective.response", now, now - 10_000)).toBe(1);
    expect(messageTtl("ocp.consensus.vote", now, now + 10 * MAX_TTL_SECONDS * 1000)).toBe(
      MAX_TTL_SECONDS,
    );
    expect(messageTtl("ocp.knowledge.stream", now)).toBe(MAX_TTL_SECONDS);
  });
});
