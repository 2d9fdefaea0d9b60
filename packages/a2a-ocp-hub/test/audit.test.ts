/**
 * Issue 16, §3 audit logging, against real hubs on real sockets and a real
 * SQLite file: what the hub accepted, refused (with the reason), delivered
 * and let expire is appended to the log, `ocp-hub audit` (the built CLI, a
 * child process) prints the refusals of a tampered and of a replayed
 * message, retention prunes, and the log refuses updates and deletes.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  type AgentIdentity,
  type AuditEntry,
  createMessage,
  MemoryAuditLog,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { type RawAgent, rawAgent } from "@ocp/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { OCPHub, SqliteAuditLog } from "../src/index.js";
import { identity, startHub, tempDir, until } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dir(): string {
  const d = tempDir("ocp-audit-");
  cleanups.push(d.cleanup);
  return d.dir;
}

function signed(from: AgentIdentity, init: Parameters<typeof createMessage>[0]): string {
  return JSON.stringify(signObject(createMessage(init), from.secretKey));
}

async function raw(url: string, id: AgentIdentity): Promise<RawAgent> {
  const agent = await rawAgent(url, id);
  cleanups.push(() => agent.close());
  return agent;
}

/** The hub's answer (ack or reject) to message `id`. */
async function answerTo(agent: RawAgent, id: string, nth = 1) {
  const answers = () => agent.controls().filter((c) => c.payload["id"] === id);
  await until(() => answers().length >= nth, `answer ${nth} to ${id}`);
  return answers()[nth - 1]!;
}

/** Runs the built CLI to completion: its exit code and output. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the built `ocp-hub` and resolves with its URL. */
async function hubProcess(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`ocp-hub exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  return { url, child };
}

describe("ocp-hub audit: the refusals of a tampered and a replayed message", () => {
  it("a real ocp-hub logs accepted, delivered and both refusals; the audit command prints them with their reasons", async () => {
    const d = dir();
    const db = join(d, "hub.sqlite");
    const { url } = await hubProcess(["--db", db, "--messages-per-minute", "1000"]);
    const mallory = identity("mallory");
    const bob = identity("bob");
    const m = await raw(url, mallory);
    const b = await raw(url, bob);
    const good = signed(mallory, {
      type: "ocp.custom.note",
      from: mallory.id,
      to: bob.id,
      payload: { says: "hello" },
    });
    const goodId = (JSON.parse(good) as { id: string }).id;
    m.send(good);
    expect((await answerTo(m, goodId)).type).toBe("ocp.hub.ack");
    await until(() => b.delivered().length === 1, "bob's delivery");
    // Tampered: the payload changed after signing.
    const tampered = signed(mallory, {
      type: "ocp.custom.note",
      from: mallory.id,
      to: bob.id,
      payload: { says: "pay 10" },
    }).replace("pay 10", "pay 99");
    const tamperedId = (JSON.parse(tampered) as { id: string }).id;
    m.send(tampered);
    expect((await answerTo(m, tamperedId)).payload["code"]).toBe("signature_invalid");
    // Replayed: the same signed bytes again.
    m.send(good);
    expect((await answerTo(m, goodId, 2)).payload["code"]).toBe("replay_detected");

    const text = await cli(["audit", "--db", db, "--agent", mallory.id, "--since", "10m"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    const refusedLines = lines.filter((line) => line.includes(" refused "));
    expect(refusedLines).toHaveLength(2);
    expect(refusedLines[0]).toContain(tamperedId);
    expect(refusedLines[0]).toContain("signature_invalid: the signature does not verify");
    expect(refusedLines[1]).toContain(goodId);
    expect(refusedLines[1]).toContain(`replay_detected: message ${goodId} was already accepted`);

    const json = await cli(["audit", "--db", db, "--agent", mallory.id, "--json"]);
    expect(json.code).toBe(0);
    const entries = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditEntry);
    expect(entries.map((e) => [e.event, e.id, e.code])).toEqual([
      ["accepted", goodId, undefined],
      ["delivered", goodId, undefined],
      ["refused", tamperedId, "signature_invalid"],
      ["refused", goodId, "replay_detected"],
    ]);
    expect(entries[0]).toMatchObject({ type: "ocp.custom.note", from: mallory.id, to: [bob.id] });
    expect(entries[1]).toMatchObject({ from: mallory.id, to: [bob.id] });
    expect(entries[2]).toMatchObject({ from: mallory.id, to: [bob.id], type: "ocp.custom.note" });

    // Filters: only refusals; an agent with nothing; nothing since a future time.
    const refusals = await cli(["audit", "--db", db, "--event", "refused", "--json"]);
    expect(refusals.stdout.trim().split("\n")).toHaveLength(2);
    const nobody = await cli(["audit", "--db", db, "--agent", "a2a://nobody"]);
    expect(nobody).toMatchObject({ code: 0, stdout: "" });
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await cli(["audit", "--db", db, "--since", later])).stdout).toBe("");
    const one = await cli(["audit", "--db", db, "--limit", "1", "--json"]);
    expect(one.stdout.trim().split("\n")).toHaveLength(1);
  }, 30_000);

  it("refuses a bad --since, --event, --limit or --agent with a usage error (exit 2), an unreadable file with exit 1", async () => {
    const d = dir();
    const cases = [
      ["--since", "yesterday"],
      ["--since", "10x"],
      ["--since", "2026-13-45T99:00:00Z"],
      ["--since", ""],
      ["--event", "deleted"],
      ["--limit", "0"],
      ["--limit", "ten"],
      ["--agent", "bob"],
      ["--unknown"],
    ];
    const results = await Promise.all(
      cases.map((args) => cli(["audit", "--db", join(d, "none.sqlite"), ...args])),
    );
    for (const [i, result] of results.entries()) {
      expect(result.code, cases[i]!.join(" ")).toBe(2);
      // One line naming the problem and a hint, not the usage text.
      expect(result.stderr).toMatch(
        /^ocp-hub audit: [^\n]+\nrun "ocp-hub audit --help" for usage\n$/,
      );
    }
    const missing = await cli(["audit", "--db", join(d, "none.sqlite")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot open the audit log");
    // A SQLite file without an audit log (a hub run with --no-audit).
    new Database(join(d, "other.sqlite")).exec("CREATE TABLE t (x)");
    const other = await cli(["audit", "--db", join(d, "other.sqlite")]);
    expect(other).toMatchObject({ code: 1 });
    expect(other.stderr).toContain("holds no audit log");
  }, 30_000);
});

describe("the hub's audit log (programmatic)", () => {
  it("records deliveries that expired unconfirmed at the sweep", async () => {
    const d = dir();
    let offset = 0;
    const log = new SqliteAuditLog({ path: join(d, "hub.sqlite") });
    const hub = await startHub(d, {
      audit: log,
      now: () => Date.now() + offset,
      sweepIntervalMs: 20,
      maxClockSkewMs: 1000,
    });
    cleanups.push(() => hub.close());
    const carol = identity("carol");
    const sender = identity("sender");
    (await rawAgent(hub.url, carol)).close(); // Carol is known, then offline.
    const s = await raw(hub.url, sender);
    await until(() => hub.connectedAgents().length === 1, "carol gone");
    const text = signed(sender, {
      type: "ocp.custom.note",
      from: sender.id,
      to: carol.id,
      ttl: 1,
      payload: {},
    });
    const id = (JSON.parse(text) as { id: string }).id;
    s.send(text);
    expect((await answerTo(s, id)).type).toBe("ocp.hub.ack");
    offset = 5_000; // Past timestamp + ttl + skew.
    let expired: AuditEntry[] = [];
    const deadline = Date.now() + 10_000;
    while (expired.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expired = await log.query({ event: "expired" });
    }
    expect(expired).toEqual([
      expect.objectContaining({ id, type: "ocp.custom.note", from: sender.id, to: [carol.id] }),
    ]);
    // Accepted, never delivered.
    const forCarol = await log.query({ agent: carol.id });
    expect(forCarol.map((e) => e.event)).toEqual(["accepted", "expired"]);
  }, 20_000);

  it("audits refusals of input that is not even JSON, or that claims another sender, under the authenticated agent", async () => {
    const d = dir();
    const log = new MemoryAuditLog();
    const hub = await startHub(d, { audit: log });
    cleanups.push(() => hub.close());
    const mallory = identity("mallory");
    const victim = identity("victim");
    const m = await raw(hub.url, mallory);
    m.send('{"id": "x", "type": ');
    m.send("[1, 2, 3]");
    const forged = signed(victim, {
      type: "ocp.custom.note",
      from: victim.id,
      to: mallory.id,
      payload: {},
    });
    m.send(forged);
    await until(
      () => m.controls().filter((c) => c.type === "ocp.hub.reject").length === 3,
      "3 rejects",
    );
    const entries = await log.query({ agent: mallory.id });
    expect(entries.map((e) => [e.event, e.code, e.from])).toEqual([
      ["refused", "invalid_json", mallory.id],
      ["refused", "invalid_message", mallory.id],
      ["refused", "sender_mismatch", mallory.id],
    ]);
    expect(entries[0]!.id).toBeUndefined();
    expect(entries[2]).toMatchObject({ id: JSON.parse(forged).id, to: [mallory.id] });
  });

  it("audits the capability.announce the hub answers itself", async () => {
    const d = dir();
    const log = new SqliteAuditLog({ path: ":memory:" });
    const hub = await startHub(d, { audit: log });
    cleanups.push(() => hub.close());
    const a = identity("a");
    const agent = await raw(hub.url, a);
    const text = signed(a, {
      type: "capability.announce",
      from: a.id,
      to: hub.self.id,
      payload: { features: ["event_publishing"], version: "1.0.0" },
    });
    agent.send(text);
    await until(() => agent.delivered().length === 1, "capability.confirm");
    const entries = await log.query({ agent: a.id });
    expect(entries.map((e) => [e.event, e.type])).toEqual([["accepted", "capability.announce"]]);
  });

  it("prunes entries past retention (at start and on prune), and nothing younger; a lowered retention is not retroactive", async () => {
    const d = dir();
    const path = join(d, "hub.sqlite");
    const now = Date.now();
    // Written two minutes ago (its retention record too), under a retention of a minute.
    const early = new SqliteAuditLog({ path, retentionMs: 60_000, now: () => now - 120_000 });
    const entry = (at: number, id: string): AuditEntry => ({
      at,
      event: "accepted",
      id,
      type: "ocp.custom.note",
      from: "a2a://x",
      to: ["a2a://y"],
    });
    early.append(entry(now - 120_000, "old"));
    early.append(entry(now - 1_000, "young"));
    await early.close();
    const log = new SqliteAuditLog({ path, retentionMs: 60_000 });
    // The hub prunes when it starts, to the log's retention.
    const hub = await startHub(d, { audit: log });
    const left = async () => (await log.query()).map((e) => e.id);
    for (let i = 0; i < 50 && (await left()).includes("old"); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await left()).toEqual(["young"]);
    expect(await log.prune(Date.now())).toBe(0);
    expect(log.verify()).toMatchObject({ ok: true, firstSeq: 3 });
    await hub.close();
    expect(() => log.append(entry(now, "after close"))).not.toThrow();
    // Lowered to half a second: it applies to what is written from now on, not to "young".
    const reopened = new SqliteAuditLog({ path, retentionMs: 500 });
    cleanups.push(() => reopened.close());
    reopened.append(entry(Date.now(), "new"));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await reopened.prune(Date.now())).toBe(0);
    expect((await reopened.query()).map((e) => e.id)).toEqual(["young", "new"]);
    expect(reopened.verify()).toMatchObject({ ok: true });
  });

  it("is append-only: the file refuses updates and deletes of entries within retention", async () => {
    const d = dir();
    const path = join(d, "hub.sqlite");
    const log = new SqliteAuditLog({ path, retentionMs: 3_600_000 });
    cleanups.push(() => log.close());
    log.append({
      at: Date.now(),
      event: "refused",
      from: "a2a://x",
      to: [],
      code: "c",
      reason: "r",
    });
    log.flush();
    const db = new Database(path);
    cleanups.push(() => db.close());
    expect(() => db.exec("UPDATE audit_log SET reason = 'nothing to see'")).toThrow(/append-only/);
    expect(() => db.exec("DELETE FROM audit_log")).toThrow(/append-only/);
    expect(await log.query()).toHaveLength(1);
  });

  it("refuses a retention that is not a positive number of ms", () => {
    for (const retentionMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new SqliteAuditLog({ path: ":memory:", retentionMs })).toThrow(
        expect.objectContaining({ code: "invalid_option" }),
      );
    }
  });

  it("a hub without the option keeps no log and writes no audit table", async () => {
    const d = dir();
    const hub = await OCPHub.start({ dbPath: join(d, "hub.sqlite"), onError: () => {} });
    await hub.close();
    const db = new Database(join(d, "hub.sqlite"));
    cleanups.push(() => db.close());
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name IN ('audit', 'audit_log')").get(),
    ).toBe(undefined);
  });
});
