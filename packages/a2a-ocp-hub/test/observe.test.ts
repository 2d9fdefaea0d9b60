/**
 * `hub.observe(listener)`: registrations, departures, accepted messages (with
 * the payload and whether the signature verified) and refusals, seen over
 * real sockets; a listener that throws does not disturb routing.
 */
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { rawAgent } from "@ocp/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { HubEvent, OCPHub } from "../src/index.js";
import { identity, startHub, tempDir, until } from "./support.js";

let dir: { dir: string; cleanup: () => void };
let hub: OCPHub;

beforeEach(async () => {
  dir = tempDir();
  hub = await startHub(dir.dir, { onError: () => {} });
});

afterEach(async () => {
  await hub.close();
  dir.cleanup();
});

it("reports agents, accepted messages and refusals to its observers", async () => {
  const events: HubEvent[] = [];
  const stop = hub.observe((event) => events.push(event));
  hub.observe(() => {
    throw new Error("a faulty observer");
  });
  const alice = identity("alice");
  const agent = await rawAgent(hub.url, alice);
  const beacon = signObject(
    createMessage({
      type: "ocp.awareness.beacon",
      from: alice.id,
      to: "broadcast",
      payload: { status: "blocked", availability: "busy", currentContext: { task: "t" } },
    }),
    alice.secretKey,
  );
  agent.send(JSON.stringify(beacon));
  const forged = { ...beacon, id: globalThis.crypto.randomUUID() };
  agent.send(JSON.stringify(forged));
  await until(() => events.some((e) => e.kind === "message.refused"), "the refusal", 10_000);
  agent.close();
  await until(() => events.some((e) => e.kind === "agent.left"), "the departure", 10_000);
  stop();

  expect(events[0]).toMatchObject({ kind: "agent.registered", agentId: alice.id });
  const accepted = events.find((e) => e.kind === "message.accepted");
  expect(accepted).toMatchObject({
    type: "ocp.awareness.beacon",
    from: alice.id,
    verified: true,
    payload: { status: "blocked" },
  });
  const refused = events.find((e) => e.kind === "message.refused");
  expect(refused).toMatchObject({ from: alice.id });
  expect(typeof (refused as { code: string }).code).toBe("string");
}, 30_000);

it("does not report an agent as left when a new connection replaces its old one", async () => {
  const events: HubEvent[] = [];
  hub.observe((event) => events.push(event));
  const bob = identity("bob");
  const first = await rawAgent(hub.url, bob);
  const closed = new Promise((resolve) => first.ws.once("close", resolve));
  const second = await rawAgent(hub.url, bob);
  await closed;
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(events.filter((e) => e.kind === "agent.left")).toEqual([]);
  second.close();
  await until(() => events.some((e) => e.kind === "agent.left"), "the departure", 10_000);
  expect(events.map((e) => e.kind)).toEqual(["agent.registered", "agent.registered", "agent.left"]);
}, 30_000);
