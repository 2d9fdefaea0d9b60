/**
 * `agent-a2a-fallback` (§9.1, §9.2): where the suite finds the agent's A2A
 * endpoint (its signed profile's agentCard, or `--agent-a2a`), what it
 * reports when there is none (skipped, never pass), when the endpoint is
 * dead, serves no card or a card without a2a+ocp (fail), and that it is
 * advisory unless `--strict`. Real fixture agents, real HTTP, real sockets.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parseArgs } from "../src/cli-args.js";
import { type FixtureAgent, listenFixtureAgent, runCompatibility } from "../src/index.js";

const FIXTURE = fileURLToPath(new URL("../dist/fixture/agent-cli.js", import.meta.url));
const ONLY = { only: ["agent-a2a-fallback"] };

let agent: FixtureAgent | undefined;
let server: Server | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** An HTTP server that answers every GET for the card with `body` (a plain A2A agent, or garbage). */
async function cardServer(body: string): Promise<string> {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The card of an A2A agent that does not speak OCP. */
const PLAIN_CARD = JSON.stringify({
  name: "plain",
  description: "a plain A2A agent",
  supportedInterfaces: [
    {
      url: "http://127.0.0.1:9/a2a/jsonrpc",
      protocolBinding: "JSONRPC",
      tenant: "",
      protocolVersion: "1.0",
    },
  ],
  version: "1.0.0",
  capabilities: { streaming: false, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["application/json"],
  defaultOutputModes: ["application/json"],
  skills: [],
  signatures: [],
});

describe("agent-a2a-fallback", () => {
  it("--agent-cmd: the fixture's A2A endpoint is found through its signed profile, and passes", async () => {
    const report = await runCompatibility(
      { agentCommand: [process.execPath, FIXTURE, "--hub", "{hub}"] },
      ONLY,
    );
    const [check] = report.checks;
    expect(check?.status).toBe("pass");
    expect(check?.evidence).toMatch(/from its signed profile's agentCard/);
    expect(check?.evidence).toMatch(/anonymous search found the public node only/);
    expect(check?.evidence).toMatch(/both refused/);
  }, 60_000);

  it("no A2A endpoint declared: skipped with the reason, never a pass", async () => {
    agent = await listenFixtureAgent({ a2a: false });
    expect(agent.a2aUrl).toBeUndefined();
    const report = await runCompatibility({ agent: agent.url }, { ...ONLY, strict: true });
    expect(report.checks[0]?.status).toBe("skipped");
    expect(report.checks[0]?.evidence).toMatch(/declares no A2A endpoint/);
    expect(report.conformant).toBe(true);
  }, 30_000);

  it("--agent-a2a names the endpoint, and takes precedence over the profile", async () => {
    agent = await listenFixtureAgent();
    const report = await runCompatibility({ agent: agent.url, agentA2a: agent.a2aUrl! }, ONLY);
    expect(report.checks[0]?.status).toBe("pass");
    expect(report.checks[0]?.evidence).toMatch(/from --agent-a2a/);
  }, 30_000);

  it("a dead endpoint fails: the card cannot be fetched", async () => {
    agent = await listenFixtureAgent({ a2a: false });
    const report = await runCompatibility(
      { agent: agent.url, agentA2a: "http://127.0.0.1:9" },
      ONLY,
    );
    expect(report.checks[0]?.status).toBe("fail");
    expect(report.checks[0]?.evidence).toMatch(/could not be fetched with the A2A SDK/);
    expect(report.checks[0]?.advisory).toBe(true);
    expect(report.conformant).toBe(true);
  }, 30_000);

  it("an endpoint that never answers fails, and the run ends", async () => {
    agent = await listenFixtureAgent({ a2a: false });
    server = createServer(() => undefined);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const report = await runCompatibility(
      { agent: agent.url, agentA2a: url },
      { ...ONLY, timeoutMs: 2_000 },
    );
    expect(report.checks[0]?.status).toBe("fail");
    expect(report.checks[0]?.evidence).toMatch(/could not be fetched|did not finish|within/);
  }, 30_000);

  it("a card that is not JSON fails", async () => {
    agent = await listenFixtureAgent({ a2a: false });
    const url = await cardServer("<html>not a card</html>");
    const report = await runCompatibility({ agent: agent.url, agentA2a: url }, ONLY);
    expect(report.checks[0]?.status).toBe("fail");
    expect(report.checks[0]?.evidence).toMatch(/could not be fetched/);
  }, 30_000);

  it("a plain A2A card (no a2a+ocp) fails: the agent does not declare OCP", async () => {
    agent = await listenFixtureAgent({ a2a: false });
    const url = await cardServer(PLAIN_CARD);
    const report = await runCompatibility({ agent: agent.url, agentA2a: url }, ONLY);
    expect(report.checks[0]?.status).toBe("fail");
    expect(report.checks[0]?.evidence).toMatch(/declares neither the a2a\+ocp extension/);
  }, 30_000);

  it("advisory: a leaking A2A side fails the check, and decides only under --strict", async () => {
    agent = await listenFixtureAgent({ misbehave: "a2a-leaks-private" });
    const lenient = await runCompatibility({ agent: agent.url }, ONLY);
    expect(lenient.checks[0]?.status).toBe("fail");
    expect(lenient.checks[0]?.evidence).toMatch(/anonymous caller was shown a private node/);
    expect(lenient.conformant).toBe(true);
    const strict = await runCompatibility({ agent: agent.url }, { ...ONLY, strict: true });
    expect(strict.conformant).toBe(false);
  }, 60_000);

  it("an A2A side that answers as whoever `from` names fails, with the leak shown", async () => {
    agent = await listenFixtureAgent({ misbehave: "a2a-trusts-from" });
    const report = await runCompatibility({ agent: agent.url }, ONLY);
    expect(report.checks[0]?.status).toBe("fail");
    expect(report.checks[0]?.evidence).toMatch(/`from` naming another agent was not refused/);
    expect(report.checks[0]?.evidence).toMatch(/shown that agent's private node/);
  }, 30_000);

  it("--agent-a2a: usage errors", () => {
    expect(parseArgs(["--hub", "ws://127.0.0.1:9/", "--agent-a2a", "http://x"]).kind).toBe(
      "usage-error",
    );
    expect(parseArgs(["--agent", "ws://127.0.0.1:9/", "--agent-a2a", "ws://x"]).kind).toBe(
      "usage-error",
    );
    expect(parseArgs(["--agent", "ws://127.0.0.1:9/", "--agent-a2a"]).kind).toBe("usage-error");
    expect(parseArgs(["--agent", "ws://127.0.0.1:9/", "--agent-a2a", "http://h:1"])).toMatchObject({
      kind: "run",
      target: { agent: "ws://127.0.0.1:9/", agentA2a: "http://h:1" },
    });
  });
});
