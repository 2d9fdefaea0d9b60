/**
 * The suite against agents that misbehave at the connection itself: it
 * never hangs and never crashes, and every check fails with the reason.
 * And the inbox keeps only what parses to a message, within its bound.
 */
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { Inbox } from "../src/agent/session.js";
import { limits, runCompatibility } from "../src/index.js";

let server: WebSocketServer | undefined;
afterEach(async () => {
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise<void>((resolve) =>
    server === undefined ? resolve() : server.close(() => resolve()),
  );
  server = undefined;
});

async function listen(onConnection: (ws: import("ws").WebSocket) => void): Promise<string> {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0, handleProtocols: () => "a2a-ocp-v1" });
  await new Promise<void>((resolve) => server!.once("listening", () => resolve()));
  server.on("connection", onConnection);
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("agent sessions against hostile endpoints", () => {
  it("an endpoint that never acks: every check fails with the reason, within the bound", async () => {
    const url = await listen(() => undefined);
    const report = await runCompatibility({ agent: url }, { timeoutMs: 1_000 });
    expect(report.checks.every((c) => c.status === "fail")).toBe(true);
    expect(report.checks[0]!.evidence).toMatch(/could not be reached: .*registered/);
  }, 30_000);

  it("an endpoint that answers garbage: refused, every check fails with the reason", async () => {
    const url = await listen((ws) => {
      ws.send("not json");
      ws.send(JSON.stringify([1, 2, 3]));
      ws.on("message", () => ws.send('{"type":'));
    });
    const report = await runCompatibility(
      { agent: url },
      { timeoutMs: 1_000, only: ["agent-registration"] },
    );
    expect(report.checks.map((c) => c.status)).toEqual(["fail"]);
    expect(report.checks[0]!.evidence).toMatch(/could not be reached/);
  }, 30_000);

  it("an endpoint that registers the peer but never says who it is: fails, and asks for --agent-id", async () => {
    const url = await listen((ws) => {
      ws.send(JSON.stringify({ type: "ocp.connection.ack", payload: { nonce: "n".repeat(32) } }));
      ws.once("message", () =>
        ws.send(JSON.stringify({ type: "ocp.connection.registered", payload: {} })),
      );
    });
    const report = await runCompatibility(
      { agent: url },
      { timeoutMs: 1_000, only: ["agent-registration"] },
    );
    expect(report.checks[0]!.evidence).toMatch(/agent's id is unknown.*--agent-id/);
  }, 30_000);

  it("the inbox keeps message objects only, and at most its bound", () => {
    const inbox = new Inbox();
    inbox.push("not json");
    inbox.push("[1,2]");
    inbox.push("null");
    inbox.push('{"type":"ocp.x"}');
    expect(inbox.messages.map((m) => m.value["type"])).toEqual(["ocp.x"]);
    for (let i = 0; i < limits.MAX_FRAMES_PER_CONNECTION + 5; i += 1)
      inbox.push('{"type":"flood"}');
    expect(inbox.messages.length).toBe(limits.MAX_FRAMES_PER_CONNECTION);
    expect(inbox.overflow).toBe(6);
  });
});
