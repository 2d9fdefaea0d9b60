/**
 * Issue 38, the audit log is tamper-evident: a real SQLite file, opened by
 * the test as an attacker on the machine would (better-sqlite3, triggers
 * dropped where they stand in the way), and `ocp-hub audit --verify` (the
 * built CLI, a child process) naming the first entry the attack broke.
 * Printing escapes what a sender chose; stored fields are bounded.
 */
import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { AuditEntry } from "@ocp/a2a-ocp-messaging";
import { AUDIT_MAX_ID_CHARS } from "@ocp/a2a-ocp-messaging/internal";
import { rawAgent } from "@ocp/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteAuditLog } from "../src/index.js";
import { identity, tempDir, until } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

const entry = (i: number): AuditEntry => ({
  at: Date.now() - 10_000 + i,
  event: "accepted",
  id: `m${i}`,
  type: "ocp.custom.note",
  from: "a2a://alice",
  to: ["a2a://bob"],
});

/** A log of a retention record and five entries (seq 1 to 6), closed; its path. */
async function writtenLog(): Promise<string> {
  const d = tempDir("ocp-audit-chain-");
  cleanups.push(d.cleanup);
  const path = join(d.dir, "hub.sqlite");
  const log = new SqliteAuditLog({ path, retentionMs: 3_600_000 });
  for (let i = 1; i <= 5; i += 1) log.append(entry(i));
  await log.close();
  return path;
}

/** The file opened as an attacker opens it. */
function attacker(path: string): Database.Database {
  const db = new Database(path);
  cleanups.push(() => db.close());
  return db;
}

function verify(path: string) {
  const log = new SqliteAuditLog({ path, readonly: true });
  try {
    return log.verify();
  } finally {
    void log.close();
  }
}

describe("ocp-hub audit --verify: the hash chain names the first entry an attack broke", () => {
  it("a clean log verifies: exit 0 with its entries and head", async () => {
    const path = await writtenLog();
    expect(verify(path)).toMatchObject({ ok: true, entries: 6, firstSeq: 1, head: { seq: 6 } });
    const out = await cli(["audit", "--verify", "--db", path]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^audit log verified: 6 entries \(1–6\), head 6 [0-9a-f]{64}\n$/);
  }, 20_000);

  it("a deleted row (after DROP TRIGGER) is named by the entry after it; the real CLI exits 3", async () => {
    const path = await writtenLog();
    const db = attacker(path);
    expect(() => db.exec("DELETE FROM audit_log WHERE seq = 3")).toThrow(/append-only/);
    db.exec("DROP TRIGGER audit_log_keep; DELETE FROM audit_log WHERE seq = 3");
    const out = await cli(["audit", "--verify", "--db", path]);
    expect(out.code).toBe(3);
    expect(out.stdout).toContain("audit log broken at entry 4: entries 3–3 are missing (deleted)");
    expect(out.stdout).toContain("trigger audit_log_keep is missing");
  }, 20_000);

  it("an edited row is named, even with the trigger put back afterwards", async () => {
    const path = await writtenLog();
    const db = attacker(path);
    expect(() => db.exec("UPDATE audit_log SET sender = 'a2a://eve' WHERE seq = 4")).toThrow(
      /append-only/,
    );
    const trigger = db
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'audit_log_no_update'")
      .get() as { sql: string };
    db.exec("DROP TRIGGER audit_log_no_update");
    db.exec("UPDATE audit_log SET sender = 'a2a://eve' WHERE seq = 4");
    db.exec(trigger.sql);
    expect(verify(path)).toEqual({
      ok: false,
      seq: 4,
      reason: "entry 4 does not match its hash (edited, moved, or the entry before it was)",
    });
  });

  it("reordered rows are named: swapped message ids, or swapped positions", async () => {
    const swappedIds = await writtenLog();
    const a = attacker(swappedIds);
    a.exec("DROP TRIGGER audit_log_no_update");
    a.exec("UPDATE audit_log SET message_id = 'm2' WHERE seq = 2");
    a.exec("UPDATE audit_log SET message_id = 'm1' WHERE seq = 3");
    expect(verify(swappedIds)).toMatchObject({ ok: false, seq: 2 });

    const swappedSeq = await writtenLog();
    const b = attacker(swappedSeq);
    b.exec("DROP TRIGGER audit_log_no_update");
    b.exec("UPDATE audit_log SET seq = 100 WHERE seq = 2");
    b.exec("UPDATE audit_log SET seq = 2 WHERE seq = 3");
    b.exec("UPDATE audit_log SET seq = 3 WHERE seq = 100");
    expect(verify(swappedSeq)).toMatchObject({ ok: false, seq: 2 });
  });

  it("retention tampering: there is no retention knob to turn, kept-until edits are named, and a hub will not prune them", async () => {
    // The old attack: lower the retention the delete trigger read, then delete recent rows.
    const path = await writtenLog();
    const db = attacker(path);
    expect(() => db.exec("UPDATE audit_meta SET retention_ms = 1")).toThrow(/no such table/);
    // Lower the entries' own retention instead, then let the hub's prune remove them.
    db.exec("DROP TRIGGER audit_log_no_update");
    db.exec("UPDATE audit_log SET keep_until = 0 WHERE seq <= 3");
    const errors: unknown[] = [];
    const hub = new SqliteAuditLog({
      path,
      retentionMs: 3_600_000,
      onError: (e) => errors.push(e),
    });
    expect(await hub.prune(Date.now())).toBe(0);
    expect(String(errors[0])).toContain("broken at entry 1: not pruning past it");
    await hub.close();
    expect(verify(path)).toMatchObject({ ok: false, seq: 1 });
    // And delete them by hand: the first surviving entry is named.
    db.exec("DELETE FROM audit_log WHERE seq <= 3");
    expect(verify(path)).toMatchObject({
      ok: false,
      seq: 4,
      reason: expect.stringContaining(
        "entries before 4 are gone and no prune record accounts for them",
      ),
    });
  });

  it("a raised retention (kept past it) is named, and so is a forged retention record", async () => {
    const raised = await writtenLog();
    const a = attacker(raised);
    a.exec("DROP TRIGGER audit_log_no_update");
    a.exec("UPDATE audit_log SET keep_until = keep_until + 86400000 WHERE seq = 5");
    expect(verify(raised)).toMatchObject({ ok: false, seq: 5 });

    const forged = await writtenLog();
    const b = attacker(forged);
    b.prepare(
      "INSERT INTO audit_log (seq, at, keep_until, event, sender, recipients, detail, hash) VALUES (7, ?, ?, 'retention', '', '[]', ?, ?)",
    ).run(Date.now(), Date.now() + 1, JSON.stringify({ retentionMs: 1 }), "0".repeat(64));
    expect(verify(forged)).toMatchObject({ ok: false, seq: 7 });
  });

  it("rows deleted under a running hub are named once the hub writes again (the chain's head is in memory)", async () => {
    const path = await writtenLog();
    const log = new SqliteAuditLog({ path, retentionMs: 3_600_000 });
    cleanups.push(() => log.close());
    const db = attacker(path);
    db.exec("DROP TRIGGER audit_log_keep; DELETE FROM audit_log WHERE seq >= 5");
    expect(verify(path)).toMatchObject({ ok: false, seq: 0 }); // Only the trigger says so yet.
    log.append(entry(6));
    log.flush();
    expect(verify(path)).toMatchObject({
      ok: false,
      seq: 7,
      reason: expect.stringContaining("5–6 are missing"),
    });
  });

  it("legitimate pruning keeps the chain verifiable: the prune record carries the last pruned hash", async () => {
    const d = tempDir("ocp-audit-chain-");
    cleanups.push(d.cleanup);
    const path = join(d.dir, "hub.sqlite");
    const past = Date.now() - 120_000;
    const early = new SqliteAuditLog({ path, retentionMs: 60_000, now: () => past });
    early.append({ ...entry(1), at: past });
    early.append({ ...entry(2), at: past });
    await early.close();
    const log = new SqliteAuditLog({ path, retentionMs: 60_000 });
    cleanups.push(() => log.close());
    log.append(entry(3));
    expect(await log.prune(Date.now())).toBe(3);
    expect((await log.query()).map((e) => e.id)).toEqual(["m3"]);
    expect(log.verify()).toMatchObject({ ok: true, entries: 2, firstSeq: 4, head: { seq: 5 } });
  });

  it("moves a log written before the chain into it, entries and all", async () => {
    const d = tempDir("ocp-audit-chain-");
    cleanups.push(d.cleanup);
    const path = join(d.dir, "hub.sqlite");
    const old = new Database(path);
    old.exec(
      "CREATE TABLE audit (at INTEGER NOT NULL, event TEXT NOT NULL, message_id TEXT, type TEXT, sender TEXT NOT NULL, recipients TEXT NOT NULL, code TEXT, reason TEXT); CREATE TABLE audit_meta (one INTEGER PRIMARY KEY, retention_ms INTEGER NOT NULL)",
    );
    old
      .prepare("INSERT INTO audit VALUES (?, 'refused', 'x', NULL, 'a2a://a', '[]', 'c', 'r')")
      .run(Date.now());
    old.close();
    const log = new SqliteAuditLog({ path });
    cleanups.push(() => log.close());
    expect(await log.query()).toEqual([
      expect.objectContaining({ event: "refused", id: "x", code: "c", reason: "r" }),
    ]);
    expect(log.verify()).toMatchObject({ ok: true, entries: 2 });
  });
});

describe("ocp-hub audit prints what a sender chose escaped, and stores it bounded", () => {
  it("a refused message's forged line, ANSI escapes and 200,000-character id reach neither the terminal nor the file whole", async () => {
    const d = tempDir("ocp-audit-chain-");
    cleanups.push(d.cleanup);
    const db = join(d.dir, "hub.sqlite");
    const child = spawn(process.execPath, [CLI, "--db", db], { stdio: ["ignore", "pipe", "pipe"] });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    );
    const url = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`ocp-hub exited ${code}`)));
      createInterface({ input: child.stdout! }).once("line", resolve);
    });
    const mallory = identity("mallory");
    const m = await rawAgent(url, mallory);
    cleanups.push(() => m.close());
    const forgedLine =
      "x\n2026-01-01T00:00:00.000Z  accepted   m1  ocp.custom.note  from a2a://alice  to a2a://bob";
    const ansi = "\u001b[2K\r\u001b[32mOK\u001b[0m";
    m.send(JSON.stringify({ id: forgedLine, type: ansi, from: mallory.id, to: "a2a://bob" }));
    m.send(JSON.stringify({ id: "i".repeat(200_000), type: "t", from: mallory.id }));
    await until(
      () => m.controls().filter((c) => c.type === "ocp.hub.reject").length === 2,
      "2 rejects",
    );
    let out = await cli(["audit", "--db", db, "--event", "refused"]);
    for (let i = 0; i < 20 && out.stdout.trim().split("\n").length < 2; i += 1)
      out = await cli(["audit", "--db", db, "--event", "refused"]); // The hub writes once a turn.
    const lines = out.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(out.stdout).not.toContain("\u001b");
    expect(out.stdout).not.toContain("\r");
    expect(lines[0]).toContain(
      "x\\n2026-01-01T00:00:00.000Z\\x20\\x20accepted\\x20\\x20\\x20m1\\x20\\x20ocp.custom.note",
    );
    expect(lines[0]).toContain("\\x1b[2K\\r\\x1b[32mOK\\x1b[0m");
    expect(lines.filter((line) => / accepted /.test(line))).toEqual([]);
    // Stored bounded: the file holds the id cut, with its marker.
    const file = attacker(db);
    const ids = file
      .prepare("SELECT message_id FROM audit_log WHERE event = 'refused' ORDER BY seq")
      .all() as Array<{ message_id: string }>;
    expect(ids[1]!.message_id).toBe(
      `${"i".repeat(AUDIT_MAX_ID_CHARS)}…[+${200_000 - AUDIT_MAX_ID_CHARS} chars]`,
    );
    expect(lines[1]).toContain(
      `${"i".repeat(AUDIT_MAX_ID_CHARS)}…[+${200_000 - AUDIT_MAX_ID_CHARS}\\x20chars]  t  from`,
    );
    expect(lines[1]!.length).toBeLessThan(1_600); // The id and the reason, each bounded.
  }, 30_000);
});
