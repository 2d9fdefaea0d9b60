import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import { applyRemote } from "@ocp/a2a-ocp-agent/internal";
import type { OCPHub } from "@ocp/a2a-ocp-hub";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { countTokens, Host } from "@ocp/host";
import { client, identity, until, within } from "@ocp/testkit";
import type { ContextFrame } from "@ocp/types";
import { beforeAll, describe, expect, it } from "vitest";
import { agentName, nodeUri, versionOf } from "../src/frames.js";
import { TeamContextProvider } from "../src/provider.js";
import { shareFrames } from "../src/share.js";
import { joinTeam } from "../src/team.js";
import {
  BACKOFF,
  CLI,
  httpProvider,
  INSPECT,
  LEAK,
  providerArgs,
  run,
  SECRET,
  teamOnHub,
} from "./support.js";

const team = teamOnHub("ocp-team-context-", { alice: [BACKOFF, SECRET], bob: [LEAK] });
const { closers } = team;
let hub: OCPHub;
let alice: OCPAgent;
let bob: OCPAgent;
beforeAll(() => {
  hub = team.hub;
  alice = team.agent("alice");
  bob = team.agent("bob");
});

async function identityFile(name: string): Promise<{ file: string; id: string }> {
  const id = identity(name);
  const file = `${team.dir}/${name}.json`;
  await saveIdentity(file, id);
  return { file, id: id.id };
}

describe("ocp-team-context", () => {
  it("H1-R2: ocp-inspect --strict passes the provider over stdio", async () => {
    const { file } = await identityFile("inspect-stdio");
    const out = await run(process.execPath, [
      INSPECT,
      "stdio",
      "--strict",
      "--query",
      "websocket reconnect",
      "--",
      process.execPath,
      CLI,
      ...providerArgs(hub.url, file, [alice.id, bob.id]),
    ]);
    expect(out.code, out.stdout).toBe(0);
    expect(out.stdout).toContain("CONFORMANT");
  });

  it("H1-R2: ocp-inspect --strict passes the provider over HTTP", async () => {
    const { file } = await identityFile("inspect-http");
    const { url, child } = await httpProvider(providerArgs(hub.url, file, [alice.id]));
    closers.push(async () => child.kill("SIGTERM"));
    const out = await run(process.execPath, [
      INSPECT,
      "http",
      "--strict",
      "--query",
      "websocket reconnect",
      url,
    ]);
    expect(out.code, out.stdout).toBe(0);
    expect(out.stdout).toContain("CONFORMANT");
  });

  it("frames carry the node's a2a:// uri, a citation naming author and node, and provenance with author, version and the signed message's digest", async () => {
    const me = identity("reader");
    const agent = await joinTeam({ hubUrl: hub.url, identity: me, peers: [alice.id, bob.id] });
    const provider = new TeamContextProvider({ agent, hubUrl: hub.url, askTeam: false });
    closers.push(() => agent.close());
    await until(() => provider.receiptOf(BACKOFF.id) !== undefined, "alice's node arrives");
    const result = await provider.query({
      goal: "how do we reconnect websockets? backoff",
      kinds: [],
      anchors: [],
      max_frames: 8,
      max_tokens: 2000,
    });
    const frame = result.frames.find((f) => f.id === `node:${BACKOFF.id}`) as ContextFrame;
    expect(frame).toBeDefined();
    expect(frame.kind).toBe("doc");
    expect(frame.uri).toBe(nodeUri({ id: BACKOFF.id, createdBy: alice.id }));
    expect(frame.uri?.startsWith("a2a://")).toBe(true);
    expect(frame.citation_label).toContain(agentName(alice.id));
    expect(frame.citation_label).toContain(BACKOFF.title);
    expect(frame.citation_label).toContain(BACKOFF.id);
    const [node, message] = frame.provenance;
    expect(node).toMatchObject({ type: "a2a+ocp.node", by: alice.id });
    expect(node?.range).toBe(`version ${versionOf(alice.node(BACKOFF.id)!)}`);
    const receipt = provider.receiptOf(BACKOFF.id)!;
    expect(message).toMatchObject({
      type: "a2a+ocp.message",
      by: alice.id,
      digest: receipt.digest,
      method: "ocp.knowledge.stream",
    });
    expect(message?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Honest cost: the host's own counter over title and content.
    for (const f of result.frames)
      expect(f.token_cost).toBe(countTokens(f.title) + countTokens(f.content));
    await provider.shutdown();
  });

  it("§8.5: a private node of another agent never becomes a frame, neither from the graph nor from the team", async () => {
    const me = identity("outsider");
    const agent = await joinTeam({ hubUrl: hub.url, identity: me, peers: [alice.id] });
    closers.push(() => agent.close());
    const provider = new TeamContextProvider({ agent, hubUrl: hub.url, teamWaitMs: 1_500 });
    await until(() => agent.node(BACKOFF.id) !== undefined, "alice's public node arrives");
    // Even if the private node reached this agent's graph, it is not served.
    applyRemote(agent.graph, [
      { kind: "node", item: { ...SECRET, createdBy: alice.id, ocpVersion: { [alice.id]: 99 } } },
    ]);
    const result = await provider.query({
      goal: "websocket reconnect token rotation secret",
      kinds: [],
      anchors: [],
      max_frames: 16,
      max_tokens: 8000,
    });
    const text = JSON.stringify(result.frames);
    expect(result.frames.length).toBeGreaterThan(0);
    expect(result.frames.map((f) => f.id)).not.toContain(`node:${SECRET.id}`);
    expect(text).not.toContain(SECRET.title);
    expect(text).not.toContain("hidden key");
    await provider.shutdown();
  });

  it("the collective-query path answers within the host's deadline even when an agent never replies", async () => {
    // An agent that receives the collective query and never answers.
    const { client: silent } = await client(hub.url, identity("silent"));
    closers.push(() => silent.close());
    const { file } = await identityFile("asker");
    const host = new Host({ legTimeoutMs: 20_000 });
    closers.push(() => host.shutdown());
    await host.addStdio({
      id: "team",
      command: process.execPath,
      // The team wait asked for is far past the deadline: the deadline wins.
      args: [
        CLI,
        "--hub",
        hub.url,
        "--identity",
        file,
        "--deadline-ms",
        "6000",
        "--team-wait-ms",
        "600000",
      ],
      timeoutMs: 20_000,
    });
    const result = await within(
      host.queryAll({ goal: "websocket memory leak fix", max_frames: 8, max_tokens: 4000 }),
      60_000,
      "the host's query",
    );
    expect(result.failures).toEqual([]);
    const frames = result.accepted.map((a) => a.frame);
    // Bob answered: his node arrives in his signed response, and a team answer cites him.
    const leak = frames.find((f) => f.id === `node:${LEAK.id}`);
    expect(leak?.provenance[1]).toMatchObject({ by: bob.id, method: "ocp.collective.response" });
    const answer = frames.find((f) => f.id.startsWith("team-answer:"));
    expect(answer?.citation_label).toContain(agentName(bob.id));
    expect(answer?.content).toContain("Consensus:");
    expect(answer?.content).toContain("Dissent:");
  });

  it("frames shared into the team arrive at a subscribed agent with their provenance", async () => {
    const sharer = await joinTeam({ hubUrl: hub.url, identity: identity("sharer") });
    closers.push(() => sharer.close());
    const received: Array<{ title: string; metadata?: Record<string, unknown> }> = [];
    alice.on("knowledge", (nodes) => received.push(...nodes));
    await alice.subscribe(sharer.id, { deliveryMode: "push" });
    const frame: ContextFrame = {
      id: "docs/compat.md#L10-42",
      kind: "doc",
      title: "Version compatibility",
      content: "Two versions interoperate if they share a major family.",
      uri: "file:///docs/compat.md",
      score: 0.8,
      token_cost: 20,
      provenance: [
        { type: "file", uri: "file:///docs/compat.md", range: "L10-42", digest: "sha256:ab" },
      ],
      citation_label: "compat.md L10-42",
      relations: [],
    };
    await shareFrames(sharer, [frame], { provider: "docs", goal: "versions" });
    await until(() => received.some((n) => n.title === frame.title), "alice receives the frame");
    const node = received.find((n) => n.title === frame.title);
    expect(node?.metadata?.["openContext"]).toMatchObject({
      provider: "docs",
      frameId: frame.id,
      citation: "compat.md L10-42",
      uri: frame.uri,
      provenance: frame.provenance,
      goal: "versions",
    });
  });
});
