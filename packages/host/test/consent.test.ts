import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOcpError } from "@ocp/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConsentStore } from "../src/index.js";
import { parseConsentFile } from "../src/internal.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ocp-consent-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const GRANT = {
  provider: "search",
  name: "web-search",
  what_leaves: "query payloads to https://search.example",
  granted_by: "alice",
};

async function expectCorrupt(path: string, line: number): Promise<void> {
  const error = await ConsentStore.open(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isOcpError(error, "consent_file_corrupt")).toBe(true);
  expect((error as Error).message).toContain(`line ${line}`);
  expect((error as { details: Record<string, unknown> }).details.line).toBe(line);
}

describe("ConsentStore", () => {
  it("C1: records a grant naming what leaves, who granted it and when", async () => {
    const at = new Date("2026-01-02T03:04:05.000Z");
    const store = ConsentStore.inMemory({ now: () => at });
    const receipt = await store.grant(GRANT);
    expect(receipt).toEqual({ op: "grant", ...GRANT, at: at.toISOString() });
    expect(store.isGranted("search", "web-search")).toBe(true);
  });

  it("C1: consent binds the provider id and its declared name", async () => {
    const store = ConsentStore.inMemory();
    await store.grant(GRANT);
    expect(store.isGranted("search", "impostor")).toBe(false);
    expect(store.isGranted("other", "web-search")).toBe(false);
  });

  it("C1: consent is revocable, and a re-grant after a revocation counts again", async () => {
    const store = ConsentStore.inMemory();
    await store.grant(GRANT);
    const revoke = await store.revoke({ provider: "search", revoked_by: "bob" });
    expect(revoke).toMatchObject({
      op: "revoke",
      provider: "search",
      name: "web-search",
      granted_by: "bob",
    });
    expect(store.isGranted("search", "web-search")).toBe(false);
    await store.grant(GRANT);
    expect(store.isGranted("search", "web-search")).toBe(true);
    expect(store.receipts().map((r) => r.op)).toEqual(["grant", "revoke", "grant"]);
  });

  it("persists grant and revoke as append-only JSON lines that a restarted store replays", async () => {
    const path = join(dir, "nested", "consent.jsonl");
    const first = await ConsentStore.open(path);
    await first.grant(GRANT);
    await first.grant({ ...GRANT, provider: "mail", name: "mailer" });
    await first.revoke({ provider: "search", revoked_by: "alice" });
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l).op)).toEqual(["grant", "grant", "revoke"]);

    const restarted = await ConsentStore.open(path);
    expect(restarted.isGranted("search", "web-search")).toBe(false);
    expect(restarted.isGranted("mail", "mailer")).toBe(true);
    expect(restarted.receipts()).toHaveLength(3);
  });

  it("opens a missing file as an empty store and creates it on the first receipt", async () => {
    const path = join(dir, "consent.jsonl");
    const store = await ConsentStore.open(path);
    expect(store.receipts()).toEqual([]);
    await store.grant(GRANT);
    expect((await readFile(path, "utf8")).endsWith("\n")).toBe(true);
  });

  it("refuses a file whose last line is truncated, naming the line, instead of dropping a revocation", async () => {
    const path = join(dir, "consent.jsonl");
    const store = await ConsentStore.open(path);
    await store.grant(GRANT);
    await store.revoke({ provider: "search", revoked_by: "alice" });
    const text = await readFile(path, "utf8");
    await writeFile(path, text.slice(0, text.length - 10));
    await expectCorrupt(path, 2);
  });

  it("refuses a corrupt line in the middle of the file, naming it", async () => {
    const path = join(dir, "consent.jsonl");
    const store = await ConsentStore.open(path);
    await store.grant(GRANT);
    await store.revoke({ provider: "search", revoked_by: "alice" });
    await store.grant({ ...GRANT, provider: "mail", name: "mailer" });
    const lines = (await readFile(path, "utf8")).split("\n");
    lines[1] = lines[1]!.replace('"revoke"', '"revoked"');
    await writeFile(path, lines.join("\n"));
    await expectCorrupt(path, 2);
  });

  it("refuses blank lines, non-JSON lines and receipts with a bad timestamp", () => {
    const ok = JSON.stringify({ op: "grant", ...GRANT, at: "2026-01-01T00:00:00.000Z" });
    expect(parseConsentFile(`${ok}\n`)).toHaveLength(1);
    expect(() => parseConsentFile(`${ok}\n\n${ok}\n`)).toThrow(/line 2: blank line/);
    expect(() => parseConsentFile(`${ok}\n{not json\n`)).toThrow(/line 2: not JSON/);
    expect(() => parseConsentFile(`${ok.replace("2026-01-01T00", "yesterday")}\n`)).toThrow(
      /line 1/,
    );
  });

  it("does not believe a grant it could not make durable", async () => {
    const path = join(dir, "consent.jsonl");
    const store = await ConsentStore.open(path);
    await mkdir(path); // a directory where the file should be: the append fails
    const error = await store.grant(GRANT).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "consent_write_failed")).toBe(true);
    expect(store.isGranted("search", "web-search")).toBe(false);
    expect(store.receipts()).toEqual([]);
  });

  it("refuses a path it cannot read with consent_file_unreadable", async () => {
    const error = await ConsentStore.open(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "consent_file_unreadable")).toBe(true);
  });

  it("writes concurrent receipts in call order", async () => {
    const path = join(dir, "consent.jsonl");
    const store = await ConsentStore.open(path);
    await Promise.all([
      store.grant(GRANT),
      store.revoke({ provider: "search", revoked_by: "a" }),
      store.grant({ ...GRANT, granted_by: "b" }),
      store.revoke({ provider: "search", revoked_by: "c" }),
    ]);
    const reopened = await ConsentStore.open(path);
    expect(reopened.receipts().map((r) => `${r.op}:${r.granted_by}`)).toEqual([
      "grant:alice",
      "revoke:a",
      "grant:b",
      "revoke:c",
    ]);
    expect(reopened.isGranted("search", "web-search")).toBe(false);
  });
});
