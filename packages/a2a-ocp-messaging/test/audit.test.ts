import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AuditEntry, MemoryAuditLog } from "../src/index.js";
import {
  AUDIT_MAX_AGENT_CHARS,
  AUDIT_MAX_ID_CHARS,
  AUDIT_MAX_REASON_CHARS,
  AUDIT_MAX_RECIPIENTS,
  AUDIT_MAX_TYPE_CHARS,
  AUDIT_QUERY_CAP,
  auditMatches,
  auditRecipients,
  auditTruncate,
  boundAuditEntry,
} from "../src/internal.js";
import { FileAuditLog } from "../src/node/index.js";

const entry = (at: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  at,
  event: "accepted",
  id: `m${at}`,
  type: "ocp.custom.note",
  from: "a2a://a",
  to: ["a2a://b"],
  ...over,
});

const withDir = async (body: (dir: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), "ocp-audit-file-"));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe("MemoryAuditLog (§3 audit log)", () => {
  it("returns entries oldest first, filtered by agent (sender or recipient), time and event", async () => {
    const log = new MemoryAuditLog();
    log.append(entry(1));
    log.append(entry(2, { event: "refused", from: "a2a://c", to: ["a2a://a"], code: "x" }));
    log.append(entry(3, { from: "a2a://c", to: ["a2a://d"] }));
    expect((await log.query()).map((e) => e.at)).toEqual([1, 2, 3]);
    expect((await log.query({ agent: "a2a://a" })).map((e) => e.at)).toEqual([1, 2]);
    expect((await log.query({ since: 2 })).map((e) => e.at)).toEqual([2, 3]);
    expect((await log.query({ event: "refused" })).map((e) => e.at)).toEqual([2]);
    expect((await log.query({ limit: 1 })).map((e) => e.at)).toEqual([1]);
    expect(await log.query({ agent: "a2a://nobody" })).toEqual([]);
  });

  it("keeps what was appended: entries are frozen copies", async () => {
    const log = new MemoryAuditLog();
    const to = ["a2a://b"];
    log.append({ ...entry(1), to });
    to.push("a2a://mallory");
    const [stored] = await log.query();
    expect(stored!.to).toEqual(["a2a://b"]);
    expect(() => {
      (stored as { reason?: string }).reason = "rewritten";
    }).toThrow(TypeError);
  });

  it("prunes entries past retention, and holds at most maxEntries (oldest dropped)", async () => {
    const log = new MemoryAuditLog({ retentionMs: 100, maxEntries: 3 });
    for (let at = 0; at < 5; at += 1) log.append(entry(at * 50));
    expect(log.size).toBe(3);
    expect((await log.query()).map((e) => e.at)).toEqual([100, 150, 200]);
    expect(await log.prune(260)).toBe(2);
    expect((await log.query()).map((e) => e.at)).toEqual([200]);
    // Many appends and prunes: the array is compacted, the order kept.
    const big = new MemoryAuditLog({ retentionMs: 10 });
    for (let at = 0; at < 5000; at += 1) {
      big.append(entry(at));
      if (at % 100 === 0) await big.prune(at);
    }
    const left = await big.query({ limit: AUDIT_QUERY_CAP });
    expect(left[0]!.at).toBeGreaterThanOrEqual(4890);
    expect(left.at(-1)!.at).toBe(4999);
  });

  it("refuses a retention or an entry cap that is not positive", () => {
    for (const retentionMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new MemoryAuditLog({ retentionMs })).toThrow(
        expect.objectContaining({ code: "invalid_option" }),
      );
    for (const maxEntries of [0, 1.5, -1])
      expect(() => new MemoryAuditLog({ maxEntries })).toThrow(
        expect.objectContaining({ code: "invalid_option" }),
      );
  });

  it("reads any `to` a message may carry", () => {
    expect(auditRecipients("a2a://x")).toEqual(["a2a://x"]);
    expect(auditRecipients(["a2a://x", 5, "a2a://y"])).toEqual(["a2a://x", "a2a://y"]);
    expect(auditRecipients(undefined)).toEqual([]);
    expect(auditRecipients({ to: "a2a://x" })).toEqual([]);
    expect(auditMatches(entry(1), { agent: "a2a://b", since: 1, event: "accepted" })).toBe(true);
  });
});

describe("FileAuditLog (append-only JSON lines)", () => {
  it("appends entries that survive a reopen, mode 0600, skipping lines that are no entry", () =>
    withDir(async (dir) => {
      const path = join(dir, "audit.jsonl");
      const log = new FileAuditLog({ path });
      log.append(entry(1));
      log.append(entry(2, { event: "refused", code: "replay_detected", reason: "again" }));
      await log.close();
      if (process.platform !== "win32") expect(statSync(path).mode & 0o777).toBe(0o600);
      appendFileSync(path, 'not json\n{"at": "soon"}\n');
      const reopened = new FileAuditLog({ path });
      reopened.append(entry(3));
      expect((await reopened.query()).map((e) => [e.at, e.event])).toEqual([
        [1, "accepted"],
        [2, "refused"],
        [3, "accepted"],
      ]);
      expect((await reopened.query({ event: "refused" }))[0]).toMatchObject({
        code: "replay_detected",
        reason: "again",
      });
      await reopened.close();
    }));

  it("prunes past retention by rewriting the file, and keeps appending after", () =>
    withDir(async (dir) => {
      const path = join(dir, "audit.jsonl");
      const log = new FileAuditLog({ path, retentionMs: 100 });
      for (const at of [0, 50, 200, 250]) log.append(entry(at));
      expect(await log.prune(300)).toBe(2);
      expect(await log.prune(300)).toBe(0);
      log.append(entry(400));
      expect((await log.query()).map((e) => e.at)).toEqual([200, 250, 400]);
      await log.close();
      expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(3);
    }));

  it("refuses a file it cannot open with a typed error", () =>
    withDir(async (dir) => {
      expect(() => new FileAuditLog({ path: join(dir, "missing", "audit.jsonl") })).toThrow(
        expect.objectContaining({ code: "store_failed" }),
      );
    }));
});

describe("audit entries are bounded: what a sender chose is never stored whole", () => {
  const hostile = (): AuditEntry => ({
    at: 1,
    event: "refused",
    id: "i".repeat(200_000),
    type: "t".repeat(5_000),
    from: `a2a://${"f".repeat(5_000)}`,
    to: Array.from({ length: AUDIT_MAX_RECIPIENTS + 10 }, (_, i) => `a2a://r${i}`),
    code: "invalid_message",
    reason: "r".repeat(50_000),
  });

  it("cuts each field to its AUDIT_MAX_* limit with a marker saying how much was left out", () => {
    const bounded = boundAuditEntry(hostile());
    expect(bounded.id).toBe(
      `${"i".repeat(AUDIT_MAX_ID_CHARS)}…[+${200_000 - AUDIT_MAX_ID_CHARS} chars]`,
    );
    expect(bounded.type!.startsWith("t".repeat(AUDIT_MAX_TYPE_CHARS))).toBe(true);
    expect(bounded.type!.length).toBeLessThan(AUDIT_MAX_TYPE_CHARS + 20);
    expect(bounded.from.length).toBeLessThan(AUDIT_MAX_AGENT_CHARS + 20);
    expect(bounded.reason!.length).toBeLessThan(AUDIT_MAX_REASON_CHARS + 20);
    expect(bounded.to).toHaveLength(AUDIT_MAX_RECIPIENTS + 1);
    expect(bounded.to.at(-1)).toBe("…[+10 recipients]");
    expect(boundAuditEntry(entry(1))).toEqual(entry(1));
  });

  it("never splits a surrogate pair", () => {
    const text = `${"a".repeat(9)}😀tail`;
    expect(auditTruncate(text, 10)).toBe(`${"a".repeat(9)}…[+6 chars]`);
  });

  it("MemoryAuditLog and FileAuditLog store a 200,000-character id bounded", () =>
    withDir(async (dir) => {
      const memory = new MemoryAuditLog();
      memory.append(hostile());
      expect((await memory.query())[0]!.id!.length).toBeLessThan(AUDIT_MAX_ID_CHARS + 20);
      const path = join(dir, "audit.jsonl");
      const file = new FileAuditLog({ path });
      file.append(hostile());
      await file.close();
      expect(statSync(path).size).toBeLessThan(80_000);
      expect(readFileSync(path, "utf8")).not.toContain("i".repeat(AUDIT_MAX_ID_CHARS + 1));
    }));
});
