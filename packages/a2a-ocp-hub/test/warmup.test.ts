import { execFileSync, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HubClient } from "@ocp/a2a-ocp-client";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { warmUpHub } from "../src/index.js";
import { HUB_WARMUP_MAX_MESSAGES } from "../src/limits.js";
import { identity, tempDir } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** Whether something still listens at the port of `url`. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("warmUpHub: the start-up warm-up through a private hub", () => {
  it("carries every message through a real loopback hub, then closes it and leaves no file behind", async () => {
    const before = readdirSync(process.cwd()).sort();
    let url = "";
    const report = await warmUpHub({
      messages: 300,
      onListening: (at) => {
        url = at;
      },
    });
    expect(report).toMatchObject({ messages: 300, completed: true });
    expect(report.reason).toBeUndefined();
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);
    expect(await listening(url)).toBe(false);
    expect(readdirSync(process.cwd()).sort()).toEqual(before);
  });

  it("admits only its two throwaway agents: a stranger, and one claiming the warm-up sender's id, are refused", async () => {
    const outcomes: string[] = [];
    const report = await warmUpHub({
      messages: 50,
      onListening: async (url) => {
        const stranger = new HubClient({ url, identity: identity("stranger"), reconnect: false });
        await stranger.connect().then(
          () => outcomes.push("stranger registered"),
          (error: { code?: string }) => outcomes.push(`stranger ${error.code}`),
        );
        const impostor = new HubClient({
          url,
          identity: { ...identity("impostor"), id: "a2a://ocp-hub-warmup/sender" },
          reconnect: false,
        });
        await impostor.connect().then(
          () => outcomes.push("impostor registered"),
          (error: { code?: string }) => outcomes.push(`impostor ${error.code}`),
        );
      },
    });
    expect(outcomes).toEqual(["stranger registration_refused", "impostor registration_refused"]);
    expect(report).toMatchObject({ messages: 50, completed: true });
  });

  it("a failure inside it is reported, not thrown, and its hub is still closed", async () => {
    let url = "";
    const report = await warmUpHub({
      messages: 100,
      onListening: (at) => {
        url = at;
        throw new Error("listener broke");
      },
    });
    expect(report).toMatchObject({ messages: 0, completed: false, reason: "listener broke" });
    expect(await listening(url)).toBe(false);
  });

  it("0 messages skips it without listening at all", async () => {
    let listened = false;
    const report = await warmUpHub({
      messages: 0,
      onListening: () => {
        listened = true;
      },
    });
    expect(report).toMatchObject({ messages: 0, completed: true });
    expect(listened).toBe(false);
  });

  it("refuses a count or a timeout out of bounds with a RangeError naming it", async () => {
    for (const messages of [-1, 1.5, Number.NaN, HUB_WARMUP_MAX_MESSAGES + 1]) {
      await expect(warmUpHub({ messages })).rejects.toThrow(RangeError);
    }
    await expect(warmUpHub({ messages: 10, timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
    await expect(warmUpHub({ messages: 10, timeoutMs: Number.POSITIVE_INFINITY })).rejects.toThrow(
      /timeoutMs/,
    );
  });

  it("past its timeout it stops, says why, and still closes its hub", async () => {
    let url = "";
    const report = await warmUpHub({
      messages: HUB_WARMUP_MAX_MESSAGES,
      timeoutMs: 300,
      onListening: (at) => {
        url = at;
      },
    });
    expect(report.completed).toBe(false);
    expect(report.reason).toBe("timed out after 300 ms");
    expect(report.messages).toBeLessThan(HUB_WARMUP_MAX_MESSAGES);
    expect(await listening(url)).toBe(false);
  });
});

describe("ocp-hub --warmup", () => {
  /** Starts `ocp-hub` with `args`; resolves with its URL and what it wrote on stderr up to then. */
  async function start(args: string[]) {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`ocp-hub exited ${code}: ${stderr}`)));
      createInterface({ input: child.stdout }).once("line", resolve);
    });
    const stopped = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    return {
      url,
      stderr: () => stderr,
      stop: async () => {
        child.kill("SIGTERM");
        await stopped;
      },
    };
  }

  it("warms up by default before listening, and nothing of it reaches the hub's own store", async () => {
    const dir = tempDir("ocp-hub-warmup-");
    const db = join(dir.dir, "hub.sqlite");
    const hub = await start(["--db", db]);
    const aliceId = identity("alice");
    try {
      // The real hub works, and knows nothing of the warm-up's agents or messages.
      const alice = new HubClient({ url: hub.url, identity: aliceId, reconnect: false });
      await alice.connect();
      await alice.close();
    } finally {
      await hub.stop();
    }
    const stderr = hub.stderr();
    expect(stderr).toMatch(/ocp-hub: warmed up: 2000 messages through a private hub in \d+ ms/);
    expect(stderr.indexOf("warmed up")).toBeLessThan(stderr.indexOf("listening on"));
    const store = new Database(db, { readonly: true });
    const count = (table: string) =>
      (store.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count("messages")).toBe(0);
    expect(count("deliveries")).toBe(0);
    const agents = store.prepare("SELECT id FROM agents").all() as Array<{ id: string }>;
    expect(agents.map((a) => a.id)).toEqual([aliceId.id]);
    store.close();
    dir.cleanup();
  }, 60_000);

  it("--warmup N carries N; --warmup 0 skips it; a bad N exits 2 naming --warmup", async () => {
    const dir = tempDir("ocp-hub-warmup-");
    const some = await start(["--db", join(dir.dir, "a.sqlite"), "--warmup", "120"]);
    await some.stop();
    expect(some.stderr()).toMatch(/warmed up: 120 messages/);
    const none = await start(["--db", join(dir.dir, "b.sqlite"), "--warmup", "0"]);
    await none.stop();
    expect(none.stderr()).not.toMatch(/warmed up|warm-up/);
    for (const bad of ["-1", "1.5", "lots", String(HUB_WARMUP_MAX_MESSAGES + 1)]) {
      expect(() =>
        execFileSync(process.execPath, [CLI, `--warmup=${bad}`], {
          encoding: "utf8",
          stdio: "pipe",
        }),
      ).toThrow(
        expect.objectContaining({ status: 2, stderr: expect.stringContaining("--warmup") }),
      );
    }
    dir.cleanup();
  }, 60_000);
});
