/**
 * Issue 40: the specification's own example messages reach our agent through
 * a real hub as printed — ids such as `msg-abc123` and `node-789` included —
 * once their sender signs them and dates them now (a 2025 timestamp is stale
 * under §4.1). The sender is a raw socket, not our client.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { generateIdentity, signObject } from "@ocp/a2a-ocp-messaging";
import { type RawAgent, rawAgent, tempDir, testHubOptions } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { hubLink } from "../src/hub-link.js";
import { until } from "./support.js";

const example = (file: string) =>
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../examples/a2a-ocp/spec-verbatim/${file}`, import.meta.url)),
      "utf8",
    ),
  );

const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("the specification's example messages at our agent", () => {
  it("§5.1.1's knowledge stream (msg-abc123, node-789) is merged as its author's, and §5.2.1's query is answered", async () => {
    const dir = tempDir("ocp-agent-spec-");
    cleanup.push(() => dir.cleanup());
    const hub = await OCPHub.start(testHubOptions(dir.dir));
    cleanup.push(() => hub.close());
    const stream = example("knowledge-stream.json");
    const bobId = generateIdentity(stream.to);
    const client = new HubClient({ url: hub.url, identity: bobId });
    await client.connect();
    const bob = new OCPAgent({ identity: bobId, link: hubLink(client) }).start();
    cleanup.push(() => bob.close());
    const errors: unknown[] = [];
    bob.on("error", (error) => errors.push(error));
    const alice = generateIdentity(stream.from);
    const raw: RawAgent = await rawAgent(hub.url, alice);
    cleanup.push(() => raw.close());
    const send = (message: Record<string, unknown>) => {
      const unsigned: Record<string, unknown> = { ...message, timestamp: new Date().toISOString() };
      delete unsigned["signature"];
      raw.send(JSON.stringify(signObject(unsigned, alice.secretKey)));
    };
    send(stream);
    await until(() => bob.node("node-789") !== undefined, "node-789 merged");
    expect(bob.node("node-789")).toMatchObject({
      title: "WebSocket memory leak fix",
      createdBy: stream.from,
    });
    const query = example("collective-query.json");
    expect(query.id).toMatch(/^msg-/);
    send({ ...query, from: alice.id, to: bobId.id });
    await until(
      () => raw.delivered().some((text) => JSON.parse(text).type === "ocp.collective.response"),
      "bob's answer to the spec's query",
    );
    const answer = raw
      .delivered()
      .map((text) => JSON.parse(text))
      .find((m) => m.type === "ocp.collective.response");
    expect(answer.correlation_id).toBe(query.id);
    expect(answer.payload.queryId).toBe(query.payload.queryId);
    expect(errors).toEqual([]);
  }, 30_000);
});
