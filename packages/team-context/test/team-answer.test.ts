import type { OCPHub } from "@ocp/a2a-ocp-hub";
import { client, identity, until } from "@ocp/testkit";
import type { ContextQuery } from "@ocp/types";
import { beforeAll, describe, expect, it } from "vitest";
import { searchText, TeamContextProvider } from "../src/provider.js";
import { joinTeam } from "../src/team.js";
import { LEAK, teamOnHub } from "./support.js";

// Bob's fix, tagged only "websocket" and "memory-leak".
const team = teamOnHub("ocp-team-answer-", {
  bob: [{ ...LEAK, tags: ["websocket", "memory-leak"] }],
});
const { closers } = team;
let hub: OCPHub;
beforeAll(() => {
  hub = team.hub;
});

const ask = (goal: string, query_text?: string): ContextQuery => ({
  goal,
  ...(query_text === undefined ? {} : { query_text }),
  kinds: [],
  anchors: [],
  max_frames: 8,
  max_tokens: 4000,
});

describe("team answers", () => {
  it("a host that sends the goal again as query_text gets 'Team answer: GOAL', and the team is asked the goal once", async () => {
    const goal = "websocket memory leak fix";
    const { client: listener, received } = await client(hub.url, identity("listener"));
    closers.push(() => listener.close());
    const agent = await joinTeam({ hubUrl: hub.url, identity: identity("asker") });
    closers.push(() => agent.close());
    const provider = new TeamContextProvider({ agent, hubUrl: hub.url, teamWaitMs: 2_000 });
    const result = await provider.query(ask(goal, goal));
    const answer = result.frames.find((frame) => frame.id.startsWith("team-answer:"));
    expect(answer?.title).toBe(`Team answer: ${goal}`);
    await until(
      () => received.some((m) => m.message.type === "ocp.collective.query"),
      "the listener receives the collective query",
    );
    const asked = received.find((m) => m.message.type === "ocp.collective.query")!;
    expect(JSON.stringify(asked.message.payload)).toContain(`"${goal}"`);
    expect(JSON.stringify(asked.message.payload)).not.toContain(`${goal} ${goal}`);
    await provider.shutdown();
  });

  it("query_text that adds to the goal is searched too, while the title names the goal alone", async () => {
    const agent = await joinTeam({ hubUrl: hub.url, identity: identity("asker-2") });
    closers.push(() => agent.close());
    const provider = new TeamContextProvider({ agent, hubUrl: hub.url, teamWaitMs: 2_000 });
    const result = await provider.query(ask("memory leak", "websocket connections map"));
    const answer = result.frames.find((frame) => frame.id.startsWith("team-answer:"));
    expect(answer?.title).toBe("Team answer: memory leak");
    await provider.shutdown();
  });

  it("searchText joins goal and query_text unless one already contains the other", () => {
    expect(searchText({ goal: "Memory leak", query_text: "memory  LEAK" })).toBe("Memory leak");
    expect(searchText({ goal: "leak", query_text: "websocket memory leak" })).toBe(
      "websocket memory leak",
    );
    expect(searchText({ goal: "leak", query_text: "websocket" })).toBe("leak websocket");
    expect(searchText({ goal: "leak" })).toBe("leak");
  });
});
