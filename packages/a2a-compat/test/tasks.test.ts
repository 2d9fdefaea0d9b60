import { type Message, type Task, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import type { AgentIdentity, EventPublishPayload } from "@ocp/a2a-ocp-messaging";
import { sampleNode as node } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AClient, type TaskRequest } from "../src/index.js";
import { A2AServer } from "../src/server.js";
import { network, sdkRequest as request, until, within } from "./support.js";

function output(result: Message | Task): Record<string, unknown> {
  expect("status" in result).toBe(true);
  const task = result as Task;
  const part = task.artifacts[0]?.parts[0]?.content;
  expect(part?.$case).toBe("data");
  return (part as { value: Record<string, unknown> }).value;
}

function state(result: Message | Task): TaskState | undefined {
  return (result as Task).status?.state;
}

describe("OCP operations as A2A tasks (§9.2), served with the SDK", () => {
  let server: A2AServer;
  let agent: OCPAgent;
  let teammate: OCPAgent;
  let client: Client;
  let caller: AgentIdentity;
  const tasks: { request: TaskRequest; caller: string | undefined }[] = [];

  beforeAll(async () => {
    const net = network(["ocp-a2a-server", "ocp-a2a-teammate"]);
    [agent, teammate] = net.agents as [OCPAgent, OCPAgent];
    caller = net.member("plain-client");
    await agent.streamKnowledge([
      node({
        id: "n-ws",
        title: "WebSocket reconnect with exponential backoff",
        description: "Reconnect after a dropped socket, doubling the delay",
        tags: ["websocket"],
        createdBy: agent.id,
        confidence: 0.8,
      }),
      node({
        id: "n-db",
        title: "Postgres index on created_at",
        description: "Speeds up the timeline query",
        tags: ["database"],
        createdBy: agent.id,
      }),
    ]);
    server = await A2AServer.start({
      agent,
      name: "OCP agent",
      voter: (proposal) => ({
        vote: (proposal.proposal as { risky?: boolean }).risky === true ? "reject" : "approve",
        reasoning: "checked the risk flag",
      }),
      onTask: (t, from) => tasks.push({ request: t, caller: from }),
    });
    // An SDK client whose requests are signed with the caller's key (which the agent's network knows).
    client = await createA2AClient(server.url, { identity: caller });
  });

  afterAll(async () => {
    await server.close();
    await agent.close();
    await teammate.close();
  });

  it("§9.2 an SDK client calls search_and_respond and gets the agent's findings", async () => {
    const result = await within(
      client.sendMessage(
        request("search_and_respond", {
          queryId: "q-1",
          query: "websocket reconnect",
          timeout: 5000,
        }),
      ),
      15_000,
      "search_and_respond",
    );
    expect(state(result)).toBe(TaskState.TASK_STATE_COMPLETED);
    const response = output(result) as {
      queryId: string;
      findings: { node: { id: string }; relevance: number }[];
      confidence: number;
    };
    expect(response.queryId).toBe("q-1");
    expect(response.findings[0]?.node.id).toBe("n-ws");
    expect(response.findings[0]?.relevance).toBe(1);
    expect(response.confidence).toBeGreaterThan(0);
  });

  it("§9.2 receive_knowledge puts the nodes into the agent's graph", async () => {
    const nodes = [
      node({ id: "n-from-a2a", title: "Learned over A2A", createdBy: "a2a://plain-client" }),
    ];
    const result = await within(
      client.sendMessage(
        request(
          "receive_knowledge",
          { streamId: "s-1", nodes, isIncremental: true, sequenceNumber: 1 },
          "a2a://plain-client",
        ),
      ),
      15_000,
      "receive_knowledge",
    );
    expect(state(result)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(output(result)).toEqual({ accepted: 1 });
    expect(agent.node("n-from-a2a")?.title).toBe("Learned over A2A");
    expect(tasks.at(-1)?.request.from).toBe("a2a://plain-client");
    expect(tasks.at(-1)?.caller).toBe("a2a://plain-client");
  });

  it("§9.2 a plain client streams knowledge with sendMessageStream and sees the task through to completed", async () => {
    const nodes = [
      node({ id: "n-streamed", title: "Streamed over SSE", createdBy: "a2a://plain-client" }),
    ];
    const states: TaskState[] = [];
    let artifact: unknown;
    const consume = async () => {
      for await (const event of client.sendMessageStream(
        request("receive_knowledge", {
          streamId: "s-2",
          nodes,
          isIncremental: true,
          sequenceNumber: 1,
        }),
      )) {
        const payload = event.payload;
        if (payload?.$case === "task")
          states.push(payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
        if (payload?.$case === "statusUpdate")
          states.push(payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
        if (payload?.$case === "artifactUpdate") {
          const part = payload.value.artifact?.parts[0]?.content;
          artifact = part?.$case === "data" ? part.value : undefined;
        }
      }
    };
    await within(consume(), 15_000, "the stream to end");
    expect(states[0]).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifact).toEqual({ accepted: 1 });
    expect(agent.node("n-streamed")?.title).toBe("Streamed over SSE");
  });

  it("§9.2 vote_on_proposal answers with the agent's vote", async () => {
    const proposal = {
      proposalId: "prop-1",
      topic: "Deploy",
      proposal: { risky: true },
      votingPeriod: 60,
      requiredVotes: 1,
      votingRule: "majority",
    };
    const result = await within(
      client.sendMessage(request("vote_on_proposal", proposal)),
      15_000,
      "vote",
    );
    expect(state(result)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(output(result)).toEqual({
      proposalId: "prop-1",
      vote: "reject",
      votedBy: agent.id,
      reasoning: "checked the risk flag",
    });
    expect(tasks.at(-1)?.caller).toBe(caller.id);
  });

  it("share_awareness records the caller's status and query_awareness reports it", async () => {
    const shared = await within(
      client.sendMessage(
        request(
          "share_awareness",
          { status: "working", availability: "busy", currentContext: { task: "migrations" } },
          "a2a://plain-client",
        ),
      ),
    );
    expect(output(shared)).toEqual({ accepted: 1 });
    const queried = await within(
      client.sendMessage(
        request("query_awareness", { queryId: "aq-1", filters: { status: ["working"] } }),
      ),
    );
    const agents = (output(queried) as { agents: { agentId: string }[] }).agents;
    expect(agents.map((a) => a.agentId)).toContain("a2a://plain-client");
  });

  it("publish_event publishes the event to the agent's team", async () => {
    const seen: EventPublishPayload[] = [];
    await teammate.subscribeEvents(["deploy.*"], undefined, (e) => seen.push(e));
    const result = await within(
      client.sendMessage(
        request("publish_event", {
          eventId: "e-1",
          eventType: "deploy.started",
          eventData: { service: "api" },
          timestamp: new Date().toISOString(),
          source: "a2a://plain-client",
        }),
      ),
    );
    expect(state(result)).toBe(TaskState.TASK_STATE_COMPLETED);
    await until(() => seen.length > 0, "the teammate to get the event");
    expect(seen[0]?.eventType).toBe("deploy.started");
    expect(seen[0]?.eventData).toEqual({ service: "api" });
    // Relayed by the agent, the event keeps its true source.
    expect(seen[0]?.source).toBe(caller.id);
  });

  it("rejects an unknown task and an invalid input, saying why", async () => {
    const unknown = await within(client.sendMessage(request("make_coffee", {})));
    expect(state(unknown)).toBe(TaskState.TASK_STATE_REJECTED);
    const invalid = await within(client.sendMessage(request("search_and_respond", { query: 42 })));
    expect(state(invalid)).toBe(TaskState.TASK_STATE_REJECTED);
    const text = (invalid as Task).status?.message?.parts.find(
      (p) => p.content?.$case === "text",
    )?.content;
    expect(text?.$case === "text" ? text.value : "").toMatch(
      /not a valid ocp.collective.query payload/,
    );
  });
});

describe("tasks of features the agent does not offer", () => {
  it("are rejected, and the card lists only the offered tasks as skills", async () => {
    const net = network(["ocp-a2a-narrow"]);
    const [agent] = net.agents as [OCPAgent];
    const server = await A2AServer.start({ agent, features: ["knowledge_streaming"] });
    try {
      expect(server.card.skills.map((s) => s.id)).toEqual(["receive_knowledge"]);
      const client = await createA2AClient(server.url, { identity: net.member("narrow-client") });
      const result = await within(
        client.sendMessage(
          request("search_and_respond", { queryId: "q-2", query: "anything", timeout: 5000 }),
        ),
      );
      expect(state(result)).toBe(TaskState.TASK_STATE_REJECTED);
      const vote = await within(
        client.sendMessage(
          request("vote_on_proposal", {
            proposalId: "p",
            topic: "t",
            proposal: {},
            votingPeriod: 1,
            requiredVotes: 1,
            votingRule: "majority",
          }),
        ),
      );
      expect(state(vote)).toBe(TaskState.TASK_STATE_REJECTED);
    } finally {
      await server.close();
      await agent.close();
    }
  });
});
