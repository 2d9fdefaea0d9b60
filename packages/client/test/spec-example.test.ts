/**
 * Issue 40: the specification's §10.5 example runs as written against a real
 * hub, imported from the package name the specification gives (`@ocp/client`),
 * and a peer we did not write (a raw socket that signs by hand) sees what it sends.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { until } from "@ocp/testkit";
import { describe, expect, it } from "vitest";
import {
  CLIENT_ERROR_CODES,
  generatePrivateKey,
  type KnowledgeNode,
  OCPAgent,
} from "../src/index.js";
import { node, useHub } from "./support.js";

const example = fileURLToPath(new URL("../example/spec-10-5.mjs", import.meta.url));

const fixture = useHub();
const { closers } = fixture;
const teammate = (name: string) => fixture.teammate(name);

describe("§10.5 with @ocp/client", () => {
  it("new OCPAgent({ id, privateKey, endpoint }), subscribe with flat domains, on('knowledge'), streamKnowledge", async () => {
    const mate = await teammate("teammate-agent");
    const agent = new OCPAgent({
      id: "a2a://my-agent",
      privateKey: generatePrivateKey(),
      endpoint: fixture.hub.url,
    });
    closers.push(() => agent.close());
    const received: KnowledgeNode[][] = [];
    agent.on("knowledge", (knowledge) => received.push(knowledge));
    await agent.subscribe(mate.id, { domains: ["backend"], deliveryMode: "push" });
    await mate.streamKnowledge([
      node(mate.id, { id: "node-backend", tags: ["backend"], title: "Pool size is 20" }),
      node(mate.id, { id: "node-frontend", tags: ["frontend"], title: "Buttons are blue" }),
    ]);
    await until(() => received.length > 0, "the teammate's backend node");
    expect(received.flat().map((n) => n.id)).toEqual(["node-backend"]);

    const heard: string[] = [];
    mate.on("knowledge", (nodes) => heard.push(...nodes.map((n) => n.id)));
    await mate.subscribe(agent.id, { deliveryMode: "push" });
    await agent.streamKnowledge([node(agent.id, { id: "node-123" })]);
    await until(() => heard.includes("node-123"), "node-123 at the teammate");
  });

  it("the example file runs as a child process: it streams node-123, then prints the teammate's backend knowledge", async () => {
    const mate = await teammate("teammate-agent");
    const child = spawn(process.execPath, [example], {
      env: {
        ...process.env,
        OCP_HUB_URL: fixture.hub.url,
        AGENT_ID: "a2a://my-agent",
        TEAMMATE: mate.id,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    closers.push(async () => child.kill("SIGKILL"));
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    await until(() => out.includes("streamed node-123") || err.length > 0, "the example's output");
    expect(err).toBe("");
    expect(out).toContain("streamed node-123 as a2a://my-agent");
    await mate.streamKnowledge([node(mate.id, { tags: ["backend"], title: "Pool size is 20" })]);
    await until(() => out.includes("Received knowledge: Pool size is 20"), "the example's handler");
  });

  it("a missing or malformed private key, or a bad endpoint, is a typed error that never echoes the key", () => {
    const attempt = (privateKey: unknown, endpoint = fixture.hub.url) => {
      try {
        new OCPAgent({ id: "a2a://my-agent", privateKey: privateKey as string, endpoint });
        return "accepted";
      } catch (error) {
        return `${(error as { code: string }).code}: ${(error as Error).message}`;
      }
    };
    expect(attempt(undefined)).toMatch(/^invalid_private_key: .*PRIVATE_KEY/);
    expect(attempt("c2VjcmV0")).toMatch(/^invalid_private_key/);
    expect(attempt("c2VjcmV0")).not.toContain("c2VjcmV0");
    expect(attempt(new Uint8Array(31))).toMatch(/31 bytes/);
    expect(attempt(generatePrivateKey(), "http://localhost:1")).toMatch(
      /^invalid_option: endpoint/,
    );
    expect(Object.keys(CLIENT_ERROR_CODES)).toEqual([
      "invalid_option",
      "invalid_private_key",
      "not_connected",
    ]);
  });

  it("an unreachable endpoint fails the waiting calls with not_connected, not a hang or an unhandled rejection", async () => {
    const agent = new OCPAgent({
      id: "a2a://lonely",
      privateKey: generatePrivateKey(),
      endpoint: "ws://127.0.0.1:9/ocp",
      connectTimeoutMs: 1_000,
    });
    closers.push(() => agent.close());
    await expect(agent.streamKnowledge([node(agent.id)])).rejects.toMatchObject({
      code: "not_connected",
    });
  });
});
