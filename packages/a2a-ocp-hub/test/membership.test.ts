/**
 * Membership is granted by the operator, not claimed (wire doc, "Membership"),
 * and `ocp.hub.lookup` obeys card visibility ("Card lookup"): a real hub on
 * a real socket, agents as `HubClient`s and raw sockets.
 */
import type { HubClient } from "@ocp/a2a-ocp-client";
import { type AgentIdentity, createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { rawAgent } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { allowList } from "../src/admission.js";
import type { OCPHub } from "../src/index.js";
import { client, identity, node, startHub, tempDir, until } from "./support.js";

let tmp = tempDir("ocp-membership-");
let hub: OCPHub | undefined;
const clients: HubClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await hub?.close();
  hub = undefined;
  tmp.cleanup();
  tmp = tempDir("ocp-membership-"); // each test on its own SQLite file
});

const card = (extra: Record<string, unknown>) => ({
  capabilities: { protocols: ["a2a+ocp"], ocp: { version: "1.0.0", features: ["x"] } },
  ...extra,
});

function profileOf(id: AgentIdentity, extra: Record<string, unknown>, issuedAt?: string) {
  return createAgentProfile(
    id,
    { extra: card(extra), ...(issuedAt === undefined ? {} : { issuedAt }) },
    nativeEd25519,
  );
}

async function connect(id: AgentIdentity, profile: ReturnType<typeof profileOf>) {
  const joined = await client(hub!.url, id, { profile, reconnect: false });
  clients.push(joined.client);
  return joined;
}

/** A transient broadcast carrying one `team` node by `from`. */
function teamStream(from: AgentIdentity, nodeId: string) {
  return {
    type: "ocp.knowledge.stream" as const,
    to: "broadcast",
    payload: {
      streamId: nodeId,
      nodes: [node(from.id, nodeId, { visibility: "team" })],
      isIncremental: true,
      sequenceNumber: 0,
    },
  };
}

const ids = (found: { agents: Array<{ id: string }> }) => found.agents.map((a) => a.id).sort();

describe("membership: an agent's team comes from the operator's allow-list", () => {
  it("a listed agent that re-signs its profile with another team gets none of that team's nodes or cards", async () => {
    const [ops, core, mate] = [identity("ops"), identity("core"), identity("mate")];
    const listed = {
      ops: profileOf(ops, { team: "ops" }, "2020-01-01T00:00:00.000Z"),
      core: profileOf(core, { team: "core", visibility: "team" }),
      // The operator's entry wins over the profile's own field.
      mate: { profile: profileOf(mate, { team: "sales" }), team: "core" },
    };
    hub = await startHub(tmp.dir, {
      allowedProfiles: [listed.ops, listed.core, listed.mate],
    });
    // Newer issuedAt, team "core": saved as the agent's profile, but grants nothing.
    const resigned = profileOf(ops, { team: "core" });
    const spy = await connect(ops, resigned);
    const author = await connect(core, listed.core);
    const member = await connect(mate, listed.mate.profile);

    const receipt = await author.client.send(teamStream(core, "core-secret"));
    expect(receipt).toMatchObject({ recipients: 1, excluded: 1 });
    await until(() => member.received.length === 1, "the team mate's node");
    // A fence: a durable message after the team node reaches the spy, the team node never.
    // (From the mate: core's team-only card, and so its key, is hidden from the spy.)
    await member.client.send({ type: "ocp.custom.fence", to: ops.id, payload: {} });
    await until(() => spy.received.length === 1, "the fence");
    expect(spy.received.map((d) => d.message.type)).toEqual(["ocp.custom.fence"]);

    // Discovery: core's team-only card is found by its team mate, not by the spy.
    expect(ids(await member.client.findAgents({ features: ["x"] }))).toContain(core.id);
    expect(ids(await spy.client.findAgents({ features: ["x"] }))).not.toContain(core.id);
    // The spy's own team-only nodes do not reach core either: it is in "ops" only.
    const own = await spy.client.send(teamStream(ops, "ops-note"));
    expect(own).toMatchObject({ recipients: 0, excluded: 2 });
  });

  it("under open registration a claimed team sees nothing team-only (nodes, cards, lookups)", async () => {
    hub = await startHub(tmp.dir);
    const [alice, bob] = [identity("alice"), identity("bob")];
    const a = await connect(alice, profileOf(alice, { team: "core", visibility: "team" }));
    const b = await connect(bob, profileOf(bob, { team: "core" }));
    expect(await a.client.send(teamStream(alice, "n1"))).toMatchObject({
      recipients: 0,
      excluded: 1,
    });
    expect(ids(await b.client.findAgents({ features: ["x"] }))).toEqual([bob.id]);
    // What an unknown agent does see: workspace and public content, and its own cards.
    const workspace = await a.client.send({
      type: "ocp.knowledge.stream",
      to: "broadcast",
      payload: {
        streamId: "w",
        nodes: [node(alice.id, "w1", { visibility: "workspace" })],
        isIncremental: true,
        sequenceNumber: 0,
      },
    });
    expect(workspace).toMatchObject({ recipients: 1, excluded: 0 });
    await until(() => b.received.some((d) => d.message.type === "ocp.knowledge.stream"), "w1");
    // A lookup of the team-only card by another agent answers its key only, so alice's
    // workspace broadcast (above) stays verifiable while her card's content stays hidden.
    const raw = await rawAgent(hub.url, identity("claimer"));
    try {
      raw.send(
        `{"protocol":"a2a+ocp","type":"ocp.hub.lookup","payload":{"agentId":"${alice.id}"}}`,
      );
      await until(() => raw.controls().length === 1, "the lookup answer");
      expect(raw.controls()[0]?.payload).toEqual({
        agentId: alice.id,
        publicKey: a.client.profile.publicKey,
      });
    } finally {
      raw.close();
    }
    expect(ids(await a.client.findAgents({ features: ["x"] }))).toEqual([alice.id, bob.id].sort());
  });

  it("refuses an allow-list that names one id twice or gives a team that is not a short string", async () => {
    const id = identity("twice");
    expect(() => allowList([profileOf(id, {}), profileOf(id, {})])).toThrow(/listed twice/);
    expect(() => allowList([{ profile: profileOf(id, {}), team: "" }])).toThrow();
    expect(() => allowList([profileOf(id, { team: 42 })])).toThrow(/team/);
    expect(() => allowList([profileOf(id, { team: "t".repeat(257) })])).toThrow(/team/);
    const entry = { profile: profileOf(id, { team: "sales" }) };
    expect(allowList([entry])?.get(id.id)?.team).toBeUndefined();
  });
});

describe("card lookup: ocp.hub.lookup obeys the card's visibility", () => {
  it("a private or team-only card answers a stranger with the key alone (nothing else of the card); its grantees get the card", async () => {
    const [owner, grantee, teamMate] = [identity("owner"), identity("grantee"), identity("mate")];
    const stranger = identity("stranger");
    const profiles = {
      owner: profileOf(owner, { visibility: "private", sharedWith: [grantee.id] }),
      teamCard: profileOf(teamMate, { team: "core", visibility: "team" }),
    };
    hub = await startHub(tmp.dir, {
      allowedProfiles: [
        { profile: profiles.owner, team: "core" },
        profiles.teamCard,
        createAgentProfile(grantee, {}, nativeEd25519),
        createAgentProfile(stranger, {}, nativeEd25519),
      ],
    });
    await connect(owner, profiles.owner);
    await connect(teamMate, profiles.teamCard);
    const lookups = async (who: AgentIdentity, agentIds: string[]) => {
      const raw = await rawAgent(hub!.url, who);
      try {
        for (const agentId of agentIds) {
          raw.send(
            `{"protocol":"a2a+ocp","type":"ocp.hub.lookup","payload":{"agentId":"${agentId}"}}`,
          );
        }
        await until(() => raw.controls().length === agentIds.length, "every lookup answer");
        return raw.controls().map((c) => c.payload);
      } finally {
        raw.close();
      }
    };
    const unknown = "a2a://nobody-registered-this";
    const [hidden, hiddenTeam, none] = await lookups(stranger, [owner.id, teamMate.id, unknown]);
    expect(hidden).toEqual({ agentId: owner.id, publicKey: profiles.owner.publicKey });
    expect(hiddenTeam).toEqual({ agentId: teamMate.id, publicKey: profiles.teamCard.publicKey });
    expect(none).toEqual({ agentId: unknown });
    const [shared, hiddenFromGrantee] = await lookups(grantee, [owner.id, teamMate.id]);
    expect(shared?.["profile"]).toEqual(profiles.owner);
    expect(hiddenFromGrantee).toEqual({
      agentId: teamMate.id,
      publicKey: profiles.teamCard.publicKey,
    });
    // The owner is in team core by its allow-list entry: it sees the team card.
    const [team] = await lookups(owner, [teamMate.id]);
    expect(team?.["profile"]).toEqual(profiles.teamCard);
  });
});
