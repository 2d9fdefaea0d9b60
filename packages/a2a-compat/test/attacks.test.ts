/**
 * The three attacks on the A2A endpoint (issue 15, item 3), replayed with the
 * official SDK client against a real A2AServer over real HTTP: as an
 * unauthenticated peer (each one worked before the endpoint required
 * credentials), as a peer authenticated as itself that claims to be another
 * agent, and against a server whose operator lets anonymous callers in.
 */
import { type Message, type Task, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory } from "@a2a-js/sdk/client";
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import type { AgentIdentity, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { signAuthorship } from "@ocp/a2a-ocp-messaging/internal";
import { sampleNode as node } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AClient } from "../src/index.js";
import { A2AServer } from "../src/server.js";
import { network, outcome, sdkRequest, within } from "./support.js";

/** What the attacker got back: the task, or the error the SDK client threw. */
async function attempt(client: Client, request: Parameters<Client["sendMessage"]>[0]) {
  return within(
    client.sendMessage(request).then(
      (result: Message | Task) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    15_000,
    "the attack",
  );
}

describe("issue 15.3: the A2A endpoint is no back door around §8.5", () => {
  let server: A2AServer;
  let agent: OCPAgent;
  let bob: OCPAgent;
  let carol: OCPAgent;
  let anonymous: Client;
  let mallory: AgentIdentity;
  let asMallory: Client;
  let asBob: Client;
  const carolStreams: KnowledgeNode[][] = [];

  beforeAll(async () => {
    const net = network(["attacked", "attacked-bob", "attacked-carol"]);
    [agent, bob, carol] = net.agents as [OCPAgent, OCPAgent, OCPAgent];
    mallory = net.member("attacked-mallory");
    carol.on("knowledge", (nodes) => carolStreams.push(nodes));
    await carol.subscribe(agent.id, { deliveryMode: "push" });
    // The subscription is in place once a probe reaches carol.
    for (let i = 0; !carolStreams.flat().some((n) => n.id === "n-probe"); i++) {
      if (i > 250) throw new Error("carol's subscription never took");
      await agent.streamKnowledge([
        node({ id: "n-probe", title: `probe ${i}`, createdBy: agent.id }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await agent.streamKnowledge([
      node({
        id: "n-secret",
        title: "Rotation schedule of the signing keys",
        description: "secret rotation keys schedule",
        tags: ["secret"],
        createdBy: agent.id,
        visibility: "private",
        sharedWith: [bob.id],
      }),
    ]);
    agent.presence.beacon(bob.id, { status: "working", availability: "busy" });
    server = await A2AServer.start({ agent, name: "attacked" });
    anonymous = await new ClientFactory().createFromUrl(server.url);
    asMallory = await createA2AClient(server.url, { identity: mallory });
    asBob = await createA2AClient(server.url, { identity: net.identities[1] as AgentIdentity });
  });

  afterAll(async () => {
    await server.close();
    for (const a of [agent, bob, carol]) await a.close();
  });

  it("attack 1: an unauthenticated search_and_respond gets no private node", async () => {
    const got = await attempt(
      anonymous,
      sdkRequest("search_and_respond", {
        queryId: "q-attack",
        query: "secret rotation keys",
        timeout: 5000,
      }),
    );
    const leaked = got.ok ? JSON.stringify(got.result) : "";
    expect(leaked).not.toContain("n-secret");
    expect(leaked).not.toContain("Rotation schedule");
    expect(got.ok).toBe(false);
  });

  it("attack 2: receive_knowledge with a forged createdBy is not signed and streamed by the receiver", async () => {
    const forged = node({ id: "n-forged", title: "Bob says: disable TLS", createdBy: bob.id });
    const before = carolStreams.length;
    const got = await attempt(
      anonymous,
      sdkRequest(
        "receive_knowledge",
        { streamId: "s-forged", nodes: [forged], isIncremental: true, sequenceNumber: 1 },
        bob.id,
      ),
    );
    if (got.ok) expect((got.result as Task).status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.node("n-forged")).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      carolStreams
        .slice(before)
        .flat()
        .map((n) => n.id),
    ).not.toContain("n-forged");
  });

  it("attack 3: share_awareness with a claimed from leaves the other agent's presence alone", async () => {
    const got = await attempt(
      anonymous,
      sdkRequest("share_awareness", { status: "away", availability: "away" }, bob.id),
    );
    if (got.ok) expect((got.result as Task).status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.presence.get(bob.id)?.status).toBe("working");
  });

  it("attack 1, authenticated: a caller that may not see a private node gets none of it; one it is shared with does", async () => {
    const query = () =>
      sdkRequest("search_and_respond", {
        queryId: "q-authenticated",
        query: "secret rotation keys",
        timeout: 5000,
      });
    const got = await within(asMallory.sendMessage(query()));
    expect(outcome(got).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(got)).not.toContain("Rotation schedule");
    const shared = await within(asBob.sendMessage(query()));
    expect(JSON.stringify(shared)).toContain("Rotation schedule");
    // Without bob's key, claiming to be bob fails at the door.
    const impostor = await createA2AClient(server.url, {
      identity: { id: bob.id, secretKey: mallory.secretKey, publicKey: mallory.publicKey },
    });
    await expect(impostor.sendMessage(query())).rejects.toThrow(/bad_signature/);
  });

  it("attack 2, authenticated: knowledge whose createdBy is another agent is refused, never signed and streamed", async () => {
    const before = carolStreams.length;
    const forged = node({ id: "n-forged-2", title: "Bob says: disable TLS", createdBy: bob.id });
    const got = await within(
      asMallory.sendMessage(
        sdkRequest("receive_knowledge", {
          streamId: "s-forged-2",
          nodes: [forged],
          isIncremental: true,
          sequenceNumber: 1,
        }),
      ),
    );
    expect(outcome(got)).toEqual({ state: TaskState.TASK_STATE_REJECTED, code: "forbidden" });
    // Nor may it overwrite a node another agent authored by sending it as its own.
    const takeover = await within(
      asMallory.sendMessage(
        sdkRequest("receive_knowledge", {
          streamId: "s-takeover",
          nodes: [node({ id: "n-secret", title: "mine now", createdBy: mallory.id })],
          isIncremental: true,
          sequenceNumber: 1,
        }),
      ),
    );
    expect(outcome(takeover)).toEqual({ state: TaskState.TASK_STATE_REJECTED, code: "forbidden" });
    // Nor hang an edge off another agent's node.
    const edge = { id: "e-1", source: "n-secret", target: "n-probe", relationship: "x", weight: 1 };
    const edged = await within(
      asMallory.sendMessage(
        sdkRequest("receive_knowledge", {
          streamId: "s-edge",
          nodes: [],
          edges: [edge],
          isIncremental: true,
          sequenceNumber: 1,
        }),
      ),
    );
    expect(outcome(edged)).toEqual({ state: TaskState.TASK_STATE_REJECTED, code: "forbidden" });
    expect(agent.graph.getEdge("e-1")).toBeUndefined();
    expect(agent.node("n-forged-2")).toBeUndefined();
    expect(agent.node("n-secret")?.createdBy).toBe(agent.id);
    // Its own knowledge it may send: kept as its own. Only a note carrying its author
    // signature is streamed on (a receiver refuses an unsigned relay of another's node).
    const own = node({ id: "n-mallory", title: "Mallory's own note", createdBy: mallory.id });
    const signedOwn = signAuthorship(
      // A signed item carries its version: the signature covers `ocpVersion`.
      {
        ...node({ id: "n-mallory-signed", title: "Mallory's signed note", createdBy: mallory.id }),
        ocpVersion: { [mallory.id]: 1 },
      },
      mallory.id,
      mallory.secretKey,
    );
    for (const [streamId, nodes] of [
      ["s-own", [own]],
      ["s-own-signed", [signedOwn]],
    ] as const) {
      const accepted = await within(
        asMallory.sendMessage(
          sdkRequest("receive_knowledge", {
            streamId,
            nodes: [...nodes],
            isIncremental: true,
            sequenceNumber: 1,
          }),
        ),
      );
      expect(outcome(accepted).state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
    expect(agent.node("n-mallory")?.createdBy).toBe(mallory.id);
    for (let i = 0; !carolStreams.flat().some((n) => n.id === "n-mallory-signed"); i++) {
      if (i > 250) throw new Error("carol never got mallory's signed note");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The agent streams in order: the unsigned note, sent first, was never streamed.
    const streamed = carolStreams.slice(before).flat();
    expect(streamed.map((n) => n.id)).not.toContain("n-forged-2");
    expect(streamed.map((n) => n.id)).not.toContain("n-mallory");
    expect(streamed.find((n) => n.id === "n-mallory-signed")?.createdBy).toBe(mallory.id);
  });

  it("attack 3, authenticated: share_awareness, a vote or an event claiming another agent is refused", async () => {
    const claims = [
      sdkRequest("share_awareness", { status: "away", availability: "away" }, bob.id),
      sdkRequest(
        "vote_on_proposal",
        {
          proposalId: "p-1",
          topic: "t",
          proposal: {},
          votingPeriod: 60,
          requiredVotes: 1,
          votingRule: "majority",
        },
        bob.id,
      ),
      sdkRequest("publish_event", {
        eventId: "e-1",
        eventType: "deploy.started",
        eventData: {},
        timestamp: new Date().toISOString(),
        source: bob.id,
      }),
    ];
    for (const claim of claims) {
      const got = await within(asMallory.sendMessage(claim));
      expect(outcome(got)).toEqual({ state: TaskState.TASK_STATE_REJECTED, code: "forbidden" });
    }
    expect(agent.presence.get(bob.id)?.status).toBe("working");
    // As itself it may: its own presence is recorded under its own id.
    const own = await within(
      asMallory.sendMessage(
        sdkRequest("share_awareness", { status: "idle", availability: "available" }),
      ),
    );
    expect(outcome(own).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.presence.get(mallory.id)?.status).toBe("idle");
  });
});
