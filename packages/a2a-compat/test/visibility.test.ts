/**
 * §8.5 over A2A: what search_and_respond returns depends on who is asking —
 * an anonymous caller (only where the operator allows one) sees `public`
 * nodes only, an authenticated one what `maySee` allows its identity under
 * the agent's policy — and each caller's tasks are its own.
 */
import { type Task, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { sampleNode as node } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AClient } from "../src/index.js";
import { SIGNED_REQUEST_SCHEME } from "../src/internal.js";
import { A2AServer } from "../src/server.js";
import { network, outcome, refused, sdkRequest, within } from "./support.js";

const TEAMS: Record<string, string> = {
  "a2a://vis-agent": "platform",
  "a2a://vis-teammate": "platform",
  "a2a://vis-outsider": "growth",
};

/** The ids of the nodes a search for "runbook" returns to `client`. */
async function found(client: Client): Promise<string[]> {
  const result = (await within(
    client.sendMessage(
      sdkRequest("search_and_respond", { queryId: "q", query: "runbook", timeout: 5000 }),
    ),
  )) as Task;
  expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  const part = result.artifacts[0]?.parts[0]?.content;
  const value =
    part?.$case === "data" ? (part.value as { findings: { node: { id: string } }[] }) : undefined;
  return (value?.findings ?? []).map((f) => f.node.id).sort();
}

describe("§8.5 visibility for A2A callers, and anonymous callers where allowed", () => {
  let agent: OCPAgent;
  let server: A2AServer;
  let teammate: AgentIdentity;
  let outsider: AgentIdentity;
  let friend: AgentIdentity;
  let anonymous: Client;

  beforeAll(async () => {
    const net = network(["vis-agent"], {
      visibility: { teamOf: (id) => TEAMS[id], defaultVisibility: "workspace" },
    });
    [agent] = net.agents as [OCPAgent];
    teammate = net.member("vis-teammate");
    outsider = net.member("vis-outsider");
    friend = net.member("vis-friend");
    const runbook = (id: string, over: Record<string, unknown>) =>
      node({ id, title: `runbook ${id}`, tags: ["runbook"], createdBy: agent.id, ...over });
    await agent.streamKnowledge([
      runbook("n-public", { visibility: "public" }),
      runbook("n-workspace", { visibility: "workspace" }),
      runbook("n-default", {}),
      runbook("n-team", { visibility: "team" }),
      runbook("n-private", { visibility: "private" }),
      runbook("n-shared", { visibility: "private", sharedWith: [friend.id] }),
    ]);
    server = await A2AServer.start({ agent, auth: { allowAnonymous: true } });
    anonymous = await createA2AClient(server.url, { anonymous: true });
  });

  afterAll(async () => {
    await server.close();
    await agent.close();
  });

  it("the card says credentials are optional: the signed scheme, or none", async () => {
    const card = await within(new DefaultAgentCardResolver().resolve(server.url));
    expect(card.securityRequirements.map((r) => Object.keys(r.schemes))).toEqual([
      [SIGNED_REQUEST_SCHEME],
      [],
    ]);
  });

  it("an anonymous caller finds public nodes only", async () => {
    expect(await found(anonymous)).toEqual(["n-public"]);
  });

  it("an authenticated caller finds what maySee allows its identity", async () => {
    const as = (identity: AgentIdentity) => createA2AClient(server.url, { identity });
    expect(await found(await as(teammate))).toEqual([
      "n-default",
      "n-public",
      "n-team",
      "n-workspace",
    ]);
    expect(await found(await as(outsider))).toEqual(["n-default", "n-public", "n-workspace"]);
    expect(await found(await as(friend))).toEqual([
      "n-default",
      "n-public",
      "n-shared",
      "n-workspace",
    ]);
  });

  it("an anonymous caller pushes nothing, reads no presence, and claims no identity", async () => {
    const refusedTasks = [
      sdkRequest("receive_knowledge", {
        streamId: "s",
        nodes: [node({ id: "n-anon", title: "anon", createdBy: "a2a://anyone" })],
        isIncremental: true,
        sequenceNumber: 1,
      }),
      sdkRequest("share_awareness", { status: "working", availability: "busy" }),
      sdkRequest("query_awareness", { queryId: "aq" }),
      sdkRequest("publish_event", {
        eventId: "e",
        eventType: "x.y",
        eventData: {},
        timestamp: new Date().toISOString(),
        source: "a2a://anyone",
      }),
      sdkRequest(
        "search_and_respond",
        { queryId: "q", query: "runbook", timeout: 5000 },
        teammate.id,
      ),
    ];
    for (const request of refusedTasks) {
      const result = await within(anonymous.sendMessage(request));
      expect(outcome(result)).toEqual({
        state: TaskState.TASK_STATE_REJECTED,
        code: "unauthenticated",
      });
    }
    expect(agent.node("n-anon")).toBeUndefined();
  });

  it("bad credentials are refused even where anonymous callers are allowed", async () => {
    const wrong = await createA2AClient(server.url, { bearerToken: "x".repeat(40) });
    expect(
      (await refused(wrong.sendMessage(sdkRequest("query_awareness", { queryId: "a" })))).reason,
    ).toBe("unknown_token");
  });

  it("a caller cannot read another caller's task", async () => {
    const mine = await createA2AClient(server.url, { identity: friend });
    const task = (await within(
      mine.sendMessage(
        sdkRequest("search_and_respond", { queryId: "q", query: "runbook", timeout: 5000 }),
      ),
    )) as Task;
    expect((await within(mine.getTask({ tenant: "", id: task.id, historyLength: 0 }))).id).toBe(
      task.id,
    );
    const other = await createA2AClient(server.url, { identity: outsider });
    await expect(other.getTask({ tenant: "", id: task.id, historyLength: 0 })).rejects.toThrow(
      /not found/i,
    );
    await expect(anonymous.getTask({ tenant: "", id: task.id, historyLength: 0 })).rejects.toThrow(
      /not found/i,
    );
  });
});
