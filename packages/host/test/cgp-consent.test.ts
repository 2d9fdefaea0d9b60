import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isOcpError } from "@ocp/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Host, ReceiptLedger } from "../src/index.js";
import { CGP_QUERY, cgpStdio, scratch, typesReceived } from "./cgp-helpers.js";

const ALICE = { kind: "human" as const, id: "alice" };
const SCOPES = ["--egress", "--scopes", "local-only,third-party-model,acme:vault"];

let host: Host | undefined;
let tmp: Awaited<ReturnType<typeof scratch>>;
beforeEach(async () => {
  tmp = await scratch();
});
afterEach(async () => {
  await host?.shutdown({ timeoutMs: 2_000 });
  host = undefined;
  await tmp.done();
});

async function scoped(receipts: ReceiptLedger): Promise<Host> {
  host = new Host({ warn: () => undefined, legTimeoutMs: 5_000, receipts });
  await host.addStdio({ ...cgpStdio("cloud", tmp.record, SCOPES), family: "contextgraph/1" });
  return host;
}

describe("C6: scope consent receipts gate every contextgraph/1 query", () => {
  it("refuses with a typed error naming every unreceipted off-machine scope; the child receives no query", async () => {
    const h = await scoped(ReceiptLedger.inMemory());
    const asked: (string[] | undefined)[] = [];
    h.on("consent_asked", (event) => asked.push(event.scopes));
    const fanOut = await h.queryAll(CGP_QUERY);
    const failure = fanOut.failures[0];
    expect(failure?.reason).toBe("consent_scope_required");
    expect(isOcpError(failure?.error, "consent_scope_required")).toBe(true);
    expect(failure?.error.details).toMatchObject({ scopes: ["third-party-model", "acme:vault"] });
    expect(failure?.error.message).toContain("third-party-model, acme:vault");
    expect(asked).toEqual([["third-party-model", "acme:vault"]]);
    await expect(h.queryProvider("cloud", CGP_QUERY)).rejects.toMatchObject({
      code: "consent_scope_required",
    });
    expect(await typesReceived(tmp.record)).toEqual(["handshake"]);
    expect(h.get("cloud")).toMatchObject({
      consent: "required",
      egressScopes: ["local-only", "third-party-model", "acme:vault"],
    });
  });

  it("a boolean consent does not open a scope gate; a receipt per scope does, one scope short is still refused", async () => {
    const h = await scoped(ReceiptLedger.inMemory());
    await h.grantConsent("cloud", { grantedBy: "alice" });
    expect((await h.queryAll(CGP_QUERY)).failures[0]?.reason).toBe("consent_scope_required");
    await h.grantScope("cloud", "third-party-model", ALICE);
    const short = (await h.queryAll(CGP_QUERY)).failures[0];
    expect(short?.error.details).toMatchObject({ scopes: ["acme:vault"] });
    expect(await typesReceived(tmp.record)).toEqual(["handshake"]);
    await h.grantScope("cloud", "acme:vault", { kind: "policy", id: "vault-policy-2" });
    expect((await h.queryAll(CGP_QUERY)).accepted).toHaveLength(2);
    expect(h.get("cloud").consent).toBe("granted");
    await h.revokeScope("cloud", "acme:vault", ALICE);
    expect((await h.queryAll(CGP_QUERY)).failures[0]?.error.details).toMatchObject({
      scopes: ["acme:vault"],
    });
    expect(await typesReceived(tmp.record)).toEqual(["handshake", "query"]);
  });

  it("receipts are append-only records in a real file the next host reads back: grant, then revocation appended", async () => {
    const path = join(tmp.dir, "receipts.jsonl");
    const first = await scoped(await ReceiptLedger.open(path));
    await first.grantScope("cloud", "third-party-model", ALICE);
    await first.grantScope("cloud", "acme:vault", ALICE, { expiresAt: "2099-01-01T00:00:00Z" });
    await first.shutdown();
    const lines = (await readFile(path, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      record: "grant",
      provider_id: "cloud",
      scope: "third-party-model",
      provider_name: "cloud",
      provider_version: "1.0.0",
      grantor: { kind: "human", id: "alice" },
      granted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
    expect(lines[1]).toMatchObject({ scope: "acme:vault", expires_at: "2099-01-01T00:00:00Z" });

    const second = await scoped(await ReceiptLedger.open(path));
    expect((await second.queryAll(CGP_QUERY)).accepted).toHaveLength(2);
    await second.revokeScope("cloud", "third-party-model", ALICE);
    await second.shutdown();
    const after = (await readFile(path, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(after.map((l) => l.record)).toEqual(["grant", "grant", "revoke"]);
    expect(after.slice(0, 2)).toEqual(lines);

    const third = await scoped(await ReceiptLedger.open(path));
    expect((await third.queryAll(CGP_QUERY)).failures[0]?.error.details).toMatchObject({
      scopes: ["third-party-model"],
    });
  });

  it("an expired receipt, or one granted to another provider name under the same id, does not count", async () => {
    const clock = { now: new Date("2026-07-01T00:00:00Z") };
    const ledger = ReceiptLedger.inMemory({ now: () => clock.now });
    const h = await scoped(ledger);
    await h.grantScope("cloud", "third-party-model", ALICE, { expiresAt: "2026-08-01T00:00:00Z" });
    await ledger.grant(
      { providerId: "cloud", name: "impostor", version: "9" },
      "acme:vault",
      ALICE,
    );
    expect((await h.queryAll(CGP_QUERY)).failures[0]?.error.details).toMatchObject({
      scopes: ["acme:vault"],
    });
    await h.grantScope("cloud", "acme:vault", ALICE);
    expect((await h.queryAll(CGP_QUERY)).accepted).toHaveLength(2);
    clock.now = new Date("2026-08-01T00:00:00Z");
    expect((await h.queryAll(CGP_QUERY)).failures[0]?.error.details).toMatchObject({
      scopes: ["third-party-model"],
    });
  });

  it("a corrupt ledger is refused whole, naming the line; a cut-off last line too", async () => {
    const path = join(tmp.dir, "receipts.jsonl");
    const ledger = await ReceiptLedger.open(path);
    await ledger.grant({ providerId: "cloud", name: "cloud", version: "1" }, "org-tenant", ALICE);
    await appendFile(path, '{"record":"grant","provider_id":"cloud"}\n');
    await expect(ReceiptLedger.open(path)).rejects.toMatchObject({
      code: "consent_file_corrupt",
      details: { line: 2 },
    });
    await writeFile(path, '{"record":"revoke"');
    await expect(ReceiptLedger.open(path)).rejects.toMatchObject({
      code: "consent_file_corrupt",
      details: { line: 1 },
    });
  });

  it("C1, C2: an egress provider declaring no off-machine scope keeps the boolean gate", async () => {
    host = new Host({ warn: () => undefined, legTimeoutMs: 5_000 });
    await host.addStdio({
      ...cgpStdio("upload", tmp.record, ["--egress"]),
      family: "contextgraph/1",
    });
    expect((await host.queryAll(CGP_QUERY)).failures[0]?.reason).toBe("consent_required");
    expect(await typesReceived(tmp.record)).toEqual(["handshake"]);
    await host.grantConsent("upload", { grantedBy: "alice" });
    expect((await host.queryAll(CGP_QUERY)).accepted).toHaveLength(2);
  });
});
