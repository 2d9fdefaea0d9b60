import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { HubClient } from "@ocp/a2a-ocp-client";
import { afterAll, describe, expect, it } from "vitest";

import { client, identity, node, tempDir, until } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const PRODUCERS = 3;
const PER_PRODUCER = 60;

/** Starts `ocp-hub` as a child process and resolves with its URL (first stdout line). */
function startHubProcess(db: string, port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [CLI, "--db", db, "--port", String(port), "--no-rate-limits"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the hub did not start")), 20_000);
    child.once("exit", (code) => reject(new Error(`the hub exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (url) => {
      clearTimeout(timer);
      resolve({ child, url });
    });
  });
}

const children: ChildProcess[] = [];
const clients: HubClient[] = [];
const dir = tempDir("ocp-hub-crash-");

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  for (const child of children) child.kill("SIGKILL");
  dir.cleanup();
});

describe("hub crash (SIGKILL) and restart on the same SQLite file", () => {
  it("delivers every acknowledged knowledge message after reconnect, none twice", async () => {
    const db = join(dir.dir, "hub.sqlite");
    const first = await startHubProcess(db, 0);
    children.push(first.child);
    const port = Number(new URL(first.url).port);
    const transport = { reconnectBaseMs: 50, reconnectMaxMs: 500 };
    const consumerId = identity("consumer");
    const consumer = await client(first.url, consumerId, { transport });
    clients.push(consumer.client);
    const producers = await Promise.all(
      Array.from({ length: PRODUCERS }, async () => {
        const joined = await client(first.url, identity("producer"), { transport });
        clients.push(joined.client);
        return joined.client;
      }),
    );
    const acked = new Set<string>();
    let killed = false;
    const stream = async (producer: HubClient) => {
      for (let i = 0; i < PER_PRODUCER; i++) {
        const receipt = await producer.send({
          type: "ocp.knowledge.stream",
          to: consumerId.id,
          payload: {
            streamId: producer.agentId,
            nodes: [node(producer.agentId, `${producer.agentId}#${i}`)],
            isIncremental: true,
            sequenceNumber: i,
          },
        });
        acked.add(receipt.id);
      }
    };
    const streaming = Promise.all(producers.map(stream));
    await until(() => acked.size >= (PRODUCERS * PER_PRODUCER) / 3, "a third acknowledged");
    first.child.kill("SIGKILL");
    killed = true;
    await new Promise((resolve) => first.child.once("exit", resolve));
    const second = await startHubProcess(db, port);
    children.push(second.child);
    await streaming;
    expect(killed).toBe(true);
    expect(acked.size).toBe(PRODUCERS * PER_PRODUCER);
    await until(
      () => new Set(consumer.received.map((m) => m.wire.id)).size === acked.size,
      "every acknowledged message delivered",
      60_000,
    );
    const ids = consumer.received.map((m) => m.wire.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of acked) expect(ids).toContain(id);
    const seqs = consumer.received.map((m) => m.seq ?? 0);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
  }, 120_000);
});
