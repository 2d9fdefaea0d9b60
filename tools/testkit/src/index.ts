import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DeliveredMessage, HubClient, type HubClientOptions } from "@ocp/a2a-ocp-client";
import { type AgentIdentity, generateIdentity, type KnowledgeNode } from "@ocp/a2a-ocp-messaging";

/** A fresh directory in the OS temp dir, removed by the returned cleanup. */
export function tempDir(prefix = "ocp-hub-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Options for a test hub on 127.0.0.1:0 with a real SQLite file in `dir`:
 * generous rate limits and a silent error log (tests assert on behaviour).
 */
export function testHubOptions(dir: string) {
  return {
    dbPath: join(dir, "hub.sqlite"),
    rateLimits: { messages: 100_000, broadcasts: 100_000, collectiveQueries: 1000 },
    onError: () => {},
  };
}

export { type RawAgent, rawAgent } from "./raw.js";

let counter = 0;
/** A fresh identity with a unique a2a:// URI. */
export function identity(name = "agent"): AgentIdentity {
  counter += 1;
  return generateIdentity(`a2a://${name}-${process.pid}-${counter}`);
}

/** A connected client that records what it receives. */
export async function client(
  url: string,
  id: AgentIdentity,
  options: Partial<HubClientOptions> = {},
): Promise<{ client: HubClient; received: DeliveredMessage[] }> {
  const received: DeliveredMessage[] = [];
  const c = new HubClient({ url, identity: id, transport: { reconnectBaseMs: 20 }, ...options });
  c.on("message", (m) => received.push(m));
  await c.connect();
  return { client: c, received };
}

/** Waits until `predicate` holds, checking every 10 ms; fails after `timeoutMs`. */
export async function until(
  predicate: () => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A knowledge node by `createdBy` with the given access fields. */
export function accessNode(
  createdBy: string,
  id: string,
  access: Pick<KnowledgeNode, "visibility" | "sharedWith"> = {},
): KnowledgeNode {
  return {
    id,
    type: "fact",
    title: `node ${id}`,
    data: { n: id },
    confidence: 0.9,
    timestamp: new Date().toISOString(),
    createdBy,
    tags: ["t"],
    ...access,
  };
}

/** Resolves with `promise`, or rejects after `ms`: every wait in these tests is bounded. */
export function within<T>(promise: Promise<T>, ms = 15_000, what = "condition"): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

let sampleCounter = 0;
/** A knowledge node with sensible defaults. */
export function sampleNode(over: Partial<KnowledgeNode> & { createdBy: string }): KnowledgeNode {
  sampleCounter += 1;
  return {
    id: `node-${sampleCounter}`,
    type: "code.solution",
    title: `Note ${sampleCounter}`,
    data: {},
    confidence: 0.9,
    timestamp: "2026-01-01T00:00:00Z",
    tags: [],
    ...over,
  };
}
