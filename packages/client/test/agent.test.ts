/**
 * `OCPAgent` of `@ocp/client` against a real hub: what its options accept
 * and refuse, how the first connection is bounded, how subscription filters
 * merge, and what its calls do before connection, after close and across
 * the team.
 */
import { createServer, type Server, type Socket } from "node:net";
import { until, within } from "@ocp/testkit";
import { describe, expect, it } from "vitest";
import { generatePrivateKey, type KnowledgeNode, OCPAgent } from "../src/index.js";
import { node, useHub } from "./support.js";

const fixture = useHub();

function agent(over: { id?: string; privateKey?: string | Uint8Array; endpoint?: string } = {}) {
  const created = new OCPAgent({
    id: over.id ?? "a2a://client-under-test",
    privateKey: over.privateKey ?? generatePrivateKey(),
    endpoint: over.endpoint ?? fixture.hub.url,
  });
  fixture.closers.push(() => created.close());
  return created;
}

/** The error `build` throws, as "code: message", or "accepted". */
function refusal(build: () => unknown): string {
  try {
    build();
    return "accepted";
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
}

describe("OCPAgent options", () => {
  it("a hex key and the base64 of the same 32 bytes are one key: both register and are heard", async () => {
    const base64 = generatePrivateKey();
    const hex = Buffer.from(base64, "base64").toString("hex");
    const mate = await fixture.teammate("listener");
    const heard: string[] = [];
    mate.on("knowledge", (nodes) => heard.push(...nodes.map((n) => n.id)));
    for (const [index, privateKey] of [hex, ` ${base64}\n`].entries()) {
      const id = `a2a://key-form-${index}`;
      const sender = agent({ id, privateKey });
      await within(sender.connected(), 10_000, `registration with key form ${index}`);
      await mate.subscribe(id, { deliveryMode: "push" });
      await sender.streamKnowledge([node(id, { id: `signed-${index}` })]);
      await until(() => heard.includes(`signed-${index}`), `the node signed with form ${index}`);
    }
  });

  it("a key of the wrong length in either spelling is invalid_private_key and never echoed", () => {
    const hex63 = "a".repeat(63);
    const base64Short = Buffer.alloc(31, 7).toString("base64");
    for (const privateKey of [hex63, base64Short, "", "   "]) {
      const said = refusal(() => agent({ privateKey }));
      expect(said, JSON.stringify(privateKey)).toMatch(/^invalid_private_key: /);
      if (privateKey.trim() !== "") expect(said).not.toContain(privateKey);
    }
    expect(refusal(() => agent({ privateKey: new Uint8Array(33) }))).toMatch(/33 bytes/);
  });

  it("no config, a non-object config or a non-string endpoint is invalid_option, not a TypeError", () => {
    const build = (config: unknown) => () => new OCPAgent(config as never);
    expect(refusal(build(undefined))).toMatch(/^invalid_option: new OCPAgent/);
    expect(refusal(build(null))).toMatch(/^invalid_option: new OCPAgent/);
    expect(refusal(build("ws://127.0.0.1:1"))).toMatch(/^invalid_option: new OCPAgent/);
    const key = generatePrivateKey();
    for (const endpoint of [42, undefined, "ws://", "wss:/host", "tcp://127.0.0.1:1"]) {
      expect(refusal(build({ id: "a2a://x", privateKey: key, endpoint }))).toMatch(
        /^invalid_option: endpoint must be a ws:\/\/ or wss:\/\/ URL/,
      );
    }
  });

  it("an id that is not an a2a:// URI is refused with a typed error, not a TypeError", () => {
    expect(refusal(() => agent({ id: "my-agent" }))).toMatch(
      /^invalid_profile: not an a2a:\/\/ agent URI/,
    );
    expect(refusal(() => agent({ id: 7 as unknown as string }))).toMatch(/^invalid_profile: /);
  });
});

describe("OCPAgent's first connection", () => {
  it("a server that accepts the socket but never answers fails connected() and every waiting call with not_connected within the bound", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    fixture.closers.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(resolve);
        }),
    );
    const { port } = silent.address() as { port: number };
    const stalled = new OCPAgent({
      id: "a2a://stalled",
      privateKey: generatePrivateKey(),
      endpoint: `ws://127.0.0.1:${port}/`,
      connectTimeoutMs: 400,
    });
    fixture.closers.push(() => stalled.close());
    const started = Date.now();
    await expect(within(stalled.connected(), 5_000)).rejects.toMatchObject({
      code: "not_connected",
      message: "no registration at the hub within 400 ms",
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(sockets.length).toBe(1);
    await expect(stalled.subscribe("a2a://anyone")).rejects.toMatchObject({
      code: "not_connected",
    });
  });

  it("calls made before registration wait for it and then succeed", async () => {
    const mate = await fixture.teammate("early-publisher");
    const early = agent({ id: "a2a://early-caller" });
    const received: KnowledgeNode[] = [];
    early.on("knowledge", (nodes) => received.push(...nodes));
    // Issued in the same tick as the constructor: nothing is registered yet.
    const subscription = early.subscribe(mate.id, { deliveryMode: "push" });
    await expect(within(subscription, 10_000)).resolves.toEqual(expect.any(String));
    await expect(early.connected()).resolves.toBeUndefined();
    await mate.streamKnowledge([node(mate.id, { id: "after-early-subscribe" })]);
    await until(() => received.some((n) => n.id === "after-early-subscribe"), "the node");
  });
});

describe("OCPAgent subscriptions and queries", () => {
  it("a flat filter overrides the same filter given in `filters`; the others are kept", async () => {
    const mate = await fixture.teammate("publisher");
    const reader = agent({ id: "a2a://filtered-reader" });
    const received: string[] = [];
    reader.on("knowledge", (nodes) => received.push(...nodes.map((n) => n.id)));
    await reader.subscribe(mate.id, {
      filters: { domains: ["frontend"], nodeTypes: ["code.solution"] },
      domains: ["backend"],
    });
    await mate.streamKnowledge([
      node(mate.id, { id: "frontend-solution", tags: ["frontend"] }),
      node(mate.id, { id: "backend-note", type: "note", tags: ["backend"] }),
      node(mate.id, { id: "backend-solution", tags: ["backend"] }),
    ]);
    await until(() => received.includes("backend-solution"), "the backend solution");
    await mate.streamKnowledge([node(mate.id, { id: "backend-solution-2", tags: ["backend"] })]);
    await until(() => received.includes("backend-solution-2"), "the second backend solution");
    expect(received).toEqual(["backend-solution", "backend-solution-2"]);
  });

  it("after unsubscribe the publisher's nodes no longer arrive; a second subscriber still gets them", async () => {
    const mate = await fixture.teammate("publisher");
    const leaving = agent({ id: "a2a://leaving-reader" });
    const staying = agent({ id: "a2a://staying-reader" });
    const left: string[] = [];
    const stayed: string[] = [];
    leaving.on("knowledge", (nodes) => left.push(...nodes.map((n) => n.id)));
    staying.on("knowledge", (nodes) => stayed.push(...nodes.map((n) => n.id)));
    const subscription = await leaving.subscribe(mate.id);
    await staying.subscribe(mate.id);
    await mate.streamKnowledge([node(mate.id, { id: "before" })]);
    await until(() => left.includes("before") && stayed.includes("before"), "both readers");
    await leaving.unsubscribe(mate.id, subscription);
    // A later request on the same link is handled after the unsubscribe.
    await leaving.subscribe(mate.id, { domains: ["nothing-published-here"] });
    await mate.streamKnowledge([node(mate.id, { id: "after" })]);
    await until(() => stayed.includes("after"), "the staying reader");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(left).toEqual(["before"]);
  });

  it("query() asks the team and returns the teammates' findings with a synthesis", async () => {
    const mate = await fixture.teammate("expert");
    await mate.streamKnowledge([
      node(mate.id, { title: "token rotation every 24 hours", tags: ["auth"] }),
    ]);
    const asker = agent({ id: "a2a://asker" });
    const result = await within(asker.query("token rotation", { timeout: 5_000, minResponses: 1 }));
    expect(result.stoppedBy).toBe("minResponses");
    const titles = result.responses.flatMap((r) => r.payload.findings.map((f) => f.node.title));
    expect(titles).toContain("token rotation every 24 hours");
    expect(result.synthesis).toBeDefined();
  });

  it("after close() every call fails not_connected, also one issued before close that was still waiting", async () => {
    const closing = agent({ id: "a2a://closing" });
    const waiting = closing.subscribe("a2a://someone-else");
    await closing.close();
    await expect(waiting).rejects.toMatchObject({ code: "not_connected" });
    await expect(closing.close()).resolves.toBeUndefined();
    await expect(closing.streamKnowledge([node(closing.id)])).rejects.toMatchObject({
      code: "not_connected",
    });
    await expect(closing.query("anyone?", { timeout: 200 })).rejects.toMatchObject({
      code: "not_connected",
    });
    await expect(closing.unsubscribe("a2a://someone-else", "s1")).rejects.toMatchObject({
      code: "not_connected",
      message: "the agent was closed",
    });
  });
});
