/**
 * Both consent stores (ocp/1 `ConsentStore`, contextgraph/1 `ReceiptLedger`)
 * sit on one append-only file: the same bounds, the same refusals, the same
 * durability, each naming its own file in its messages.
 */
import { mkdir, mkdtemp, readFile, rm, rmdir, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConsentStore, ReceiptLedger } from "../src/index.js";
import { MAX_CONSENT_FILE_BYTES } from "../src/internal.js";

const SUBJECT = { providerId: "cloud", name: "cloud", version: "1" };
const ALICE = { kind: "human" as const, id: "alice" };
const GRANT = { provider: "cloud", name: "cloud", what_leaves: "notes", granted_by: "alice" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ocp-append-log-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Subject {
  label: string;
  open(path: string): Promise<unknown>;
  /** Opens the file and appends one entry. */
  write(path: string): Promise<unknown>;
  /** Appends one entry to an open store. */
  append(store: unknown): Promise<unknown>;
  /** How many entries an open store holds in memory. */
  held(store: unknown): number;
  count(path: string): Promise<number>;
}

const stores: Subject[] = [
  {
    label: "consent file",
    open: (path) => ConsentStore.open(path),
    write: async (path) => (await ConsentStore.open(path)).grant(GRANT),
    append: (store) => (store as ConsentStore).grant(GRANT),
    held: (store) => (store as ConsentStore).receipts().length,
    count: async (path) => (await ConsentStore.open(path)).receipts().length,
  },
  {
    label: "receipt ledger",
    open: (path) => ReceiptLedger.open(path),
    write: async (path) => (await ReceiptLedger.open(path)).grant(SUBJECT, "org-tenant", ALICE),
    append: (store) => (store as ReceiptLedger).grant(SUBJECT, "org-tenant", ALICE),
    held: (store) => (store as ReceiptLedger).records().length,
    count: async (path) => (await ReceiptLedger.open(path)).records().length,
  },
];

describe.each(stores)("the $label on its append-only file", (store) => {
  it("a missing file opens empty and is created, mode 0600, on the first append", async () => {
    const path = join(dir, "nested", "log.jsonl");
    expect(await store.count(path)).toBe(0);
    await store.write(path);
    const text = await readFile(path, "utf8");
    expect(text.split("\n")).toHaveLength(2);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await store.count(path)).toBe(1);
  });

  it("a file past MAX_CONSENT_FILE_BYTES is refused before it is read, naming the file kind", async () => {
    const path = join(dir, "big.jsonl");
    await writeFile(path, "");
    await truncate(path, MAX_CONSENT_FILE_BYTES + 1);
    const error = await store.open(path).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: "consent_file_too_large",
      details: { path, size: MAX_CONSENT_FILE_BYTES + 1, max: MAX_CONSENT_FILE_BYTES },
    });
    expect((error as Error).message).toContain(`${store.label} ${path}`);
  });

  it("a blank line or a line that is not JSON refuses the whole file with its line number", async () => {
    const path = join(dir, "bad.jsonl");
    await store.write(path);
    await writeFile(path, `${await readFile(path, "utf8")}\n`);
    await expect(store.open(path)).rejects.toMatchObject({
      code: "consent_file_corrupt",
      details: { line: 2, reason: "blank line" },
    });
    await writeFile(path, "{not json\n");
    await expect(store.open(path)).rejects.toMatchObject({
      code: "consent_file_corrupt",
      details: { line: 1, reason: "not JSON" },
    });
  });

  it("a directory where the file should be is consent_file_unreadable, not a crash", async () => {
    await expect(store.open(dir)).rejects.toMatchObject({
      code: "consent_file_unreadable",
      details: { path: dir, errno: "EISDIR" },
    });
  });

  it("an append that cannot be written is consent_write_failed, leaves memory unchanged, and does not block the next", async () => {
    const path = join(dir, "log.jsonl");
    const opened = await store.open(path);
    await mkdir(path);
    await expect(store.append(opened)).rejects.toMatchObject({
      code: "consent_write_failed",
      details: { path },
    });
    expect(store.held(opened)).toBe(0);
    await rmdir(path);
    await store.append(opened);
    expect(store.held(opened)).toBe(1);
    expect(await store.count(path)).toBe(1);
  });
});

describe("appends are serialised", () => {
  it("ConsentStore: a grant and a revoke issued together apply in call order", async () => {
    const store = ConsentStore.inMemory();
    await Promise.all([store.grant(GRANT), store.revoke({ provider: "cloud", revoked_by: "bob" })]);
    expect(store.receipts().map((receipt) => receipt.op)).toEqual(["grant", "revoke"]);
    expect(store.isGranted("cloud", "cloud")).toBe(false);
  });

  it("ReceiptLedger: twenty concurrent grants land as twenty whole lines, in call order", async () => {
    const path = join(dir, "ledger.jsonl");
    const ledger = await ReceiptLedger.open(path);
    const scopes = Array.from({ length: 20 }, (_, index) => `acme:scope-${index}`);
    await Promise.all(scopes.map((scope) => ledger.grant(SUBJECT, scope, ALICE)));
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { scope: string }).scope)).toEqual(scopes);
    const reopened = await ReceiptLedger.open(path);
    expect(reopened.missingScopes(SUBJECT, scopes)).toEqual([]);
  });
});
