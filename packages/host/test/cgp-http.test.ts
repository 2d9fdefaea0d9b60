import type { ChildProcess } from "node:child_process";
import { networkInterfaces } from "node:os";
import { isOcpError } from "@ocp/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Host, ReceiptLedger } from "../src/index.js";
import { CGP_QUERY, received, scratch, startCgpHttp } from "./cgp-helpers.js";

const TOKEN = "s3cr3t-bearer-token-5e1f";
const WRONG = "wr0ng-bearer-token-77aa";

let tmp: Awaited<ReturnType<typeof scratch>>;
const children: ChildProcess[] = [];
const hosts: Host[] = [];
beforeEach(async () => {
  tmp = await scratch();
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.shutdown({ timeoutMs: 2_000 });
  for (const child of children.splice(0)) child.kill();
  await tmp.done();
});

async function serve(flags: string[]): Promise<number> {
  const { child, port } = await startCgpHttp(["--record", tmp.record, ...flags]);
  children.push(child);
  return port;
}

function newHost(options: ConstructorParameters<typeof Host>[0] = {}): Host {
  const host = new Host({ legTimeoutMs: 1_500, ...options });
  hosts.push(host);
  return host;
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? [])
      if (entry.family === "IPv4" && !entry.internal) return entry.address;
  }
  return undefined;
}

describe("contextgraph/1 over real HTTP", () => {
  it("C4: a loopback CGP provider declaring egress: false is egress anyway; no query before consent, answered after", async () => {
    const port = await serve(["--name", "remote"]);
    const host = newHost({ warn: () => undefined });
    const listing = await host.addHttp({
      id: "remote",
      url: `http://127.0.0.1:${port}/cgp`,
      family: "contextgraph/1",
    });
    expect(listing).toMatchObject({ family: "contextgraph/1", egress: true, consent: "required" });
    expect(listing.info.data_flow.egress).toBe(false);
    expect((await host.queryAll(CGP_QUERY)).failures[0]?.reason).toBe("consent_required");
    expect((await received(tmp.record)).map((r) => JSON.parse(String(r.body)).type)).toEqual([
      "handshake",
    ]);
    await host.grantConsent("remote", { grantedBy: "alice" });
    const fanOut = await host.queryAll(CGP_QUERY);
    expect(fanOut.accepted.map((a) => a.frame.id)).toEqual(["a", "b"]);
  });

  it("negotiates over HTTP too: a provider refusing contextgraph/1 is reached in ocp/1 on a fresh connection", async () => {
    const port = await serve(["--name", "old", "--accepts", "ocp"]);
    const host = newHost({ warn: () => undefined });
    const listing = await host.addHttp({
      id: "old",
      url: `http://127.0.0.1:${port}/`,
      families: ["contextgraph/1", "ocp/1"],
    });
    expect(listing.family).toBe("ocp/1");
    const offered = (await received(tmp.record)).map(
      (r) => JSON.parse(String(r.body)).protocol_version,
    );
    expect(offered).toEqual(["contextgraph/1.0-draft", "ocp/1.0-draft"]);
  });

  it("C8: the bearer token reaches the provider, and appears in no event, warning or error of the host", async () => {
    const port = await serve([
      "--name",
      "remote",
      "--egress",
      "--scopes",
      "third-party-model",
      "--require-token",
      TOKEN,
    ]);
    const seen: unknown[] = [];
    const host = newHost({ warn: (line) => seen.push(line), receipts: ReceiptLedger.inMemory() });
    for (const name of [
      "provider_added",
      "provider_removed",
      "consent_asked",
      "consent_granted",
      "consent_revoked",
      "leg_started",
      "leg_finished",
      "frames_dropped",
      "frames_trimmed",
    ] as const) {
      host.on(name, (event) => seen.push(event));
    }
    await host.addHttp({
      id: "remote",
      url: `http://127.0.0.1:${port}/`,
      token: TOKEN,
      family: "contextgraph/1",
    });
    const refused = await host.queryAll(CGP_QUERY);
    seen.push(...refused.failures.map((f) => f.error));
    await host.grantConsent("remote", { grantedBy: "alice" });
    await host.grantScope("remote", "third-party-model", { kind: "human", id: "alice" });
    const answered = await host.queryAll(CGP_QUERY);
    expect(answered.accepted).toHaveLength(2);
    seen.push(answered, host.list());
    await host.revokeConsent("remote", { revokedBy: "alice" });
    // Errors of every kind the transport can raise with the token configured.
    const errors = await Promise.all([
      host
        .addHttp({ id: "gone", url: "http://127.0.0.1:9/", token: TOKEN, family: "contextgraph/1" })
        .catch((e: unknown) => e),
      host
        .addHttp({ id: "plain", url: "http://192.0.2.1/", token: TOKEN, family: "contextgraph/1" })
        .catch((e: unknown) => e),
      // A wrong credential: refused (401), and that token is in no error either.
      host
        .addHttp({
          id: "wrong",
          url: `http://127.0.0.1:${port}/`,
          token: WRONG,
          family: "contextgraph/1",
        })
        .catch((e: unknown) => e),
    ]);
    expect(errors.map((e) => (e as { code: string }).code)).toEqual([
      "connection_failed",
      "insecure_url",
      "unauthorized",
    ]);
    expect(errors.every((e) => isOcpError(e))).toBe(true);
    seen.push(...errors);
    const text = seen
      .map((item) =>
        item instanceof Error
          ? `${item.message} ${item.stack} ${JSON.stringify((item as { details?: unknown }).details)} ${String((item as { cause?: unknown }).cause)}`
          : JSON.stringify(item),
      )
      .join("\n");
    expect(text.length).toBeGreaterThan(500);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(WRONG);
    expect(text.toLowerCase()).not.toContain("bearer");
    const headers = (await received(tmp.record)).map(
      (r) => (r.headers as Record<string, string>).authorization,
    );
    expect(headers).toContain(`Bearer ${TOKEN}`);
  });

  const external = externalAddress();
  it.skipIf(external === undefined)(
    "C7: plain http to this machine's non-loopback address is refused before any byte leaves; the same server on loopback is reached",
    async () => {
      const port = await serve(["--name", "lan", "--listen", "0.0.0.0"]);
      const host = newHost({ warn: () => undefined });
      const error = await host
        .addHttp({ id: "lan", url: `http://${external}:${port}/`, family: "contextgraph/1" })
        .catch((e: unknown) => e);
      expect(isOcpError(error, "insecure_url")).toBe(true);
      expect(await received(tmp.record)).toEqual([]);
      expect(host.list()).toEqual([]);
      await host.addHttp({ id: "lan", url: `http://127.0.0.1:${port}/`, family: "contextgraph/1" });
      expect(await received(tmp.record)).toHaveLength(1);
    },
  );
});
