import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHttpProviderServer, type HttpProviderServer } from "@ocp/transport-http";
import { isOcpError } from "@ocp/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConsentStore, Host } from "../src/index.js";
import { type ByteCounter, countBytesTo } from "./byte-counter.js";
import { type FakeProvider, fakeProvider, QUERY } from "./helpers.js";

const PROVIDER = fileURLToPath(new URL("./fixtures/provider.mjs", import.meta.url));
const TIMEOUT_MS = 500;
const GOAL = "the secret goal that must not leave";

let dir: string;
let remote: FakeProvider;
let server: HttpProviderServer;
let counter: ByteCounter;
const hosts: Host[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ocp-http-"));
  // The remote provider declares egress: false; it is egress anyway (C4).
  remote = fakeProvider({ id: "remote", name: "remote-search", egress: false });
  server = createHttpProviderServer(remote, { log: () => undefined });
  const url = new URL(await server.listen({ host: "127.0.0.1", port: 0 }));
  counter = await countBytesTo(Number(url.port));
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.shutdown({ timeoutMs: 2_000 });
  await counter.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function newHost(consent?: ConsentStore): Host {
  const host = new Host({
    warn: () => undefined,
    legTimeoutMs: TIMEOUT_MS,
    ...(consent ? { consent } : {}),
  });
  hosts.push(host);
  return host;
}

/** Connects to the remote provider through the byte counter. */
function addRemote(host: Host) {
  return host.addHttp({ id: "remote", url: `http://127.0.0.1:${counter.port}/` });
}

const query = { ...QUERY, goal: GOAL };

describe("Host with a real HTTP provider behind a byte counter", () => {
  it("C2, C4: an unconsented HTTP provider receives zero bytes of the query; after consent it is queried; after revocation it is not", async () => {
    const host = newHost();
    const listing = await addRemote(host);
    expect(listing.info.data_flow.egress).toBe(false); // as declared

    expect(listing).toMatchObject({ transport: "http", egress: true, consent: "required" });
    expect(listing.whatLeaves).toContain(`127.0.0.1:${counter.port}`);

    const afterHandshake = counter.bytes();
    const before = await host.queryAll(query);
    expect(before.failures.map((f) => f.reason)).toEqual(["consent_required"]);
    expect(counter.bytes() - afterHandshake).toBe(0);
    expect(counter.received()).not.toContain(GOAL);
    expect(remote.received.length).toBe(0);

    await host.grantConsent("remote", { grantedBy: "test" });
    const granted = await host.queryAll(query);
    expect(granted.accepted.map((a) => a.frame.id)).toEqual(["remote-1", "remote-2"]);
    expect(counter.received()).toContain(GOAL);
    expect(remote.received.length).toBe(1);

    await host.revokeConsent("remote", { revokedBy: "test" });
    const afterRevoke = counter.bytes();
    const revoked = await host.queryAll(query);
    expect(revoked.failures.map((f) => f.reason)).toEqual(["consent_required"]);
    expect(counter.bytes()).toBe(afterRevoke);
    expect(remote.received.length).toBe(1);
  });

  it("C1: the consent file survives a restart (grant, then revoke), and a corrupted file is refused loudly", async () => {
    const file = join(dir, "consent.jsonl");
    const first = newHost(await ConsentStore.open(file));
    await addRemote(first);
    await first.grantConsent("remote", { grantedBy: "alice" });
    // A host restart: a new host and store over the same file. (Not
    // first.shutdown(): that would send the remote provider a shutdown, R2.)

    const second = newHost(await ConsentStore.open(file));
    expect((await addRemote(second)).consent).toBe("granted");
    expect((await second.queryProvider("remote", query)).frames).toHaveLength(2);
    await second.revokeConsent("remote", { revokedBy: "alice" });
    expect(remote.received.length).toBe(1);

    const third = newHost(await ConsentStore.open(file));
    expect((await addRemote(third)).consent).toBe("required");
    const quiet = counter.bytes();
    const error = await third.queryProvider("remote", query).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "consent_required")).toBe(true);
    expect(counter.bytes()).toBe(quiet);
    expect(remote.received.length).toBe(1);

    // Cut the revocation in half: the load must fail, never fall back to the grant.
    const text = await readFile(file, "utf8");
    await writeFile(file, text.slice(0, text.length - 20));
    const corrupt = await ConsentStore.open(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(corrupt, "consent_file_corrupt")).toBe(true);
    expect((corrupt as Error).message).toMatch(/line 2: truncated/);
  });

  it("B1, B2, C2: fan-out over five real providers (stdio liar, crash, hang, honest; unconsented HTTP egress) reports each with its reason within the per-leg timeout", async () => {
    const host = newHost();
    const stdio = (id: string, extra: Record<string, unknown> = {}) =>
      host.addStdio({ id, command: process.execPath, args: [PROVIDER, id, id], ...extra });
    await stdio("liar");
    await stdio("crash");
    await stdio("hang", { shutdownGraceMs: 300 });
    await stdio("honest");
    await addRemote(host);
    const afterHandshake = counter.bytes();

    const started = performance.now();
    const result = await host.queryAll(query);
    const elapsed = performance.now() - started;

    expect(result.accepted.map((a) => `${a.providerId}/${a.frame.id}`)).toEqual([
      "honest/1",
      "honest/2",
    ]);
    expect(result.failures.map((f) => [f.providerId, f.reason])).toEqual([
      ["crash", "crashed"],
      ["hang", "timeout"],
      ["remote", "consent_required"],
    ]);
    expect(result.liars.map((l) => l.providerId)).toEqual(["liar"]);
    expect(result.liars[0]!.message).toContain("2 frames declaring 400 tokens for max_tokens 200");
    expect(counter.bytes()).toBe(afterHandshake);
    expect(elapsed).toBeLessThan(4 * TIMEOUT_MS);
    expect(result.usage.map((u) => [u.providerId, u.outcome])).toEqual([
      ["liar", "dropped"],
      ["crash", "failed"],
      ["hang", "failed"],
      ["honest", "ok"],
      ["remote", "failed"],
    ]);
  });

  it("addHttp passes the transport's refusal through and registers nothing (plain http off loopback)", async () => {
    const host = newHost();
    const error = await host.addHttp({ id: "far", url: "http://192.0.2.1/ocp" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "insecure_url")).toBe(true);
    expect(host.list()).toEqual([]);
  });
});
