/**
 * Browser origins at the hub's upgrade: a WebSocket upgrade carrying an
 * `Origin` header (what every browser page sends) is refused with HTTP 403
 * unless the origin is listed (`allowedOrigins`, `--allow-origin`); agents
 * that send no `Origin` are unaffected. Real hub, real sockets, real
 * announcements (the Chromium test is in the dashboard package).
 */
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type AgentIdentity, createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { OCPHub } from "../src/index.js";
import { client, identity, startHub, tempDir, within } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hub(options: { allowedOrigins?: string[] } = {}): Promise<OCPHub> {
  const dir = tempDir("ocp-hub-origin-");
  cleanups.push(dir.cleanup);
  const started = await startHub(dir.dir, options);
  cleanups.push(() => started.close());
  return started;
}

/**
 * Connects with these upgrade headers and announces `id`: "registered", the
 * HTTP status of a refused upgrade, or the close code.
 */
function register(
  url: string,
  id: AgentIdentity,
  headers: Record<string, string>,
): Promise<"registered" | number> {
  const ws = new WebSocket(url, ["a2a-ocp-v1"], { headers, perMessageDeflate: false });
  ws.on("error", () => {});
  const outcome = new Promise<"registered" | number>((resolve) => {
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("close", (code) => resolve(code));
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; payload: { nonce: string } };
      if (frame.type === "ocp.connection.ack") {
        const profile = createAgentProfile(id, {}, nativeEd25519);
        ws.send(buildAnnouncement(id, profile, frame.payload.nonce, undefined, nativeEd25519));
      } else if (frame.type === "ocp.connection.registered") resolve("registered");
    });
  });
  return within(outcome, 10_000, "an upgrade's outcome").finally(() => ws.terminate());
}

describe("browser origins at the hub's upgrade", () => {
  it("refuses a page of another origin (Origin: https://evil.example) with 403 before any socket", async () => {
    const h = await hub();
    const mallory = identity("mallory");
    expect(await register(h.url, mallory, { origin: "https://evil.example" })).toBe(403);
    // Even an origin on this machine is a browser page: refused unless listed.
    expect(await register(h.url, mallory, { origin: `http://127.0.0.1:${h.port}` })).toBe(403);
    expect(h.connectedAgents()).toEqual([]);
    expect(h.stats().known).toBe(0);
  });

  it("admits a page of a listed origin and refuses every other origin", async () => {
    const h = await hub({ allowedOrigins: ["https://console.example"] });
    const alice = identity("alice");
    expect(await register(h.url, alice, { origin: "https://console.example" })).toBe("registered");
    expect(await register(h.url, alice, { origin: "https://evil.example" })).toBe(403);
    expect(await register(h.url, alice, { origin: "http://console.example" })).toBe(403);
  });

  it("admits an agent that sends no Origin (not a browser), raw and through HubClient", async () => {
    const h = await hub();
    expect(await register(h.url, identity("alice"), {})).toBe("registered");
    const bob = await client(h.url, identity("bob"), { reconnect: false });
    cleanups.push(async () => {
      await bob.client.close();
    });
    expect(h.connectedAgents()).toContain(bob.client.agentId);
  });

  it("refuses to start with an allowed origin that is not https://host[:port]", async () => {
    const dir = tempDir("ocp-hub-origin-bad-");
    cleanups.push(dir.cleanup);
    await expect(startHub(dir.dir, { allowedOrigins: ["*"] })).rejects.toThrow(TypeError);
  });
});

describe("ocp-hub --allow-origin", () => {
  it("is repeatable: each listed origin is admitted, any other refused (403)", async () => {
    const dir = tempDir("ocp-hub-origin-cli-");
    cleanups.push(dir.cleanup);
    const child = spawn(
      process.execPath,
      [
        CLI,
        "--db",
        join(dir.dir, "hub.sqlite"),
        "--allow-origin",
        "https://one.example",
        "--allow-origin",
        "http://127.0.0.1:8080",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    cleanups.push(() => {
      child.kill("SIGTERM");
    });
    const url = await within(
      new Promise<string>((resolve) =>
        createInterface({ input: child.stdout }).once("line", resolve),
      ),
      20_000,
      "the hub's URL",
    );
    const alice = identity("alice");
    expect(await register(url, alice, { origin: "https://one.example" })).toBe("registered");
    expect(await register(url, alice, { origin: "http://127.0.0.1:8080" })).toBe("registered");
    expect(await register(url, alice, { origin: "https://evil.example" })).toBe(403);
    expect(await register(url, alice, {})).toBe("registered");
  }, 30_000);

  it("refuses a value that is not an origin with exit code 2 and says what it takes", () => {
    for (const bad of ["*", "one.example", "https://one.example/path"]) {
      let failure: { status?: number; stderr?: string } = {};
      try {
        execFileSync(process.execPath, [CLI, "--allow-origin", bad], { stdio: "pipe" });
      } catch (error) {
        failure = error as { status: number; stderr: string };
      }
      expect(failure.status).toBe(2);
      expect(String(failure.stderr)).toContain("--allow-origin takes an origin");
    }
  });
});
