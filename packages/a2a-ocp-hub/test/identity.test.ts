/**
 * Issue 16: a hub identity that persists across restarts. `loadHubIdentity`
 * creates the key file with mode 0600 and refuses one others may read; the
 * built `ocp-hub --identity FILE`, restarted, signs with the same key (read
 * from its `ocp.connection.ack` over a real socket).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { loadHubIdentity } from "../src/index.js";
import { tempDir } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dir(): string {
  const d = tempDir("ocp-identity-");
  cleanups.push(d.cleanup);
  return d.dir;
}

/** Runs the built hub until it prints its URL (or exits): the URL, or the exit code and stderr. */
function runHub(
  args: string[],
): Promise<{ url?: string; code?: number; stderr: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve({ code: code ?? -1, stderr, child }));
    createInterface({ input: child.stdout }).once("line", (url) => resolve({ url, stderr, child }));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** The hub's id and public key, as its `ocp.connection.ack` announces them. */
function hubKey(url: string): Promise<{ id: string; publicKey: string }> {
  const ws = new WebSocket(url, ["a2a-ocp-v1"]);
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.once("message", (data) => {
      const frame = JSON.parse(data.toString()) as {
        payload: { hub: { id: string; publicKey: string } };
      };
      ws.close();
      // The profile is re-signed at each start (a new issuedAt); the key is what persists.
      resolve({ id: frame.payload.hub.id, publicKey: frame.payload.hub.publicKey });
    });
  });
}

describe("loadHubIdentity", () => {
  it.skipIf(process.platform === "win32")(
    "creates the key file with mode 0600 when absent, and loads the same key after",
    async () => {
      const path = join(dir(), "keys", "hub.json");
      const first = await loadHubIdentity(path);
      expect(first.created).toBe(true);
      expect(first.identity.id).toBe("a2a://ocp-hub");
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const second = await loadHubIdentity(path);
      expect(second.created).toBe(false);
      expect(Buffer.from(second.identity.publicKey)).toEqual(Buffer.from(first.identity.publicKey));
      expect(Buffer.from(second.identity.secretKey)).toEqual(Buffer.from(first.identity.secretKey));
    },
  );

  it.skipIf(process.platform === "win32")(
    "refuses a key file group or others may read or write, a directory, and a file that is no identity",
    async () => {
      const d = dir();
      const path = join(d, "hub.json");
      await loadHubIdentity(path);
      for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602]) {
        chmodSync(path, mode);
        await expect(loadHubIdentity(path)).rejects.toMatchObject({
          code: "invalid_option",
          message: expect.stringContaining("accessible to others"),
        });
      }
      chmodSync(path, 0o400);
      await expect(loadHubIdentity(path)).resolves.toMatchObject({ created: false });
      mkdirSync(join(d, "a-dir"));
      await expect(loadHubIdentity(join(d, "a-dir"))).rejects.toMatchObject({
        code: "invalid_option",
        message: expect.stringContaining("not a regular file"),
      });
      for (const text of ["not json", "{}", '{"format":"a2a+ocp-identity/1","id":"a2a://x"}']) {
        writeFileSync(join(d, "bad.json"), text, { mode: 0o600 });
        await expect(loadHubIdentity(join(d, "bad.json"))).rejects.toMatchObject({
          code: "invalid_option",
          message: expect.stringContaining("not an a2a+ocp identity file"),
        });
      }
    },
  );
});

describe("ocp-hub --identity FILE", () => {
  it("keeps the hub's key across a restart; without the flag it changes", async () => {
    const d = dir();
    const key = join(d, "hub-identity.json");
    const args = ["--db", join(d, "hub.sqlite"), "--identity", key];
    const first = await runHub(args);
    expect(first.url, first.stderr).toBeDefined();
    const before = await hubKey(first.url!);
    await stop(first.child);
    expect(statSync(key).mode & 0o777).toBe(0o600);
    const second = await runHub(args);
    expect(second.url, second.stderr).toBeDefined();
    cleanups.push(() => stop(second.child));
    expect(await hubKey(second.url!)).toEqual(before);
    expect(second.stderr).toContain(`identity a2a://ocp-hub from ${key}`);

    const plain = await runHub(["--db", join(d, "other.sqlite")]);
    cleanups.push(() => stop(plain.child));
    const other = await hubKey(plain.url!);
    expect(other.id).toBe(before.id);
    expect(other.publicKey).not.toBe(before.publicKey);
  }, 30_000);

  it.skipIf(process.platform === "win32")(
    "refuses a world-readable key file with exit code 2, saying why",
    async () => {
      const d = dir();
      const key = join(d, "hub-identity.json");
      await loadHubIdentity(key);
      chmodSync(key, 0o644);
      const run = await runHub(["--db", join(d, "hub.sqlite"), "--identity", key]);
      expect(run.url).toBeUndefined();
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("accessible to others (mode 644)");
    },
    15_000,
  );
});
