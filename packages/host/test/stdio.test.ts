import { fileURLToPath } from "node:url";
import { isOcpError } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { QUERY } from "./helpers.js";

const PROVIDER = fileURLToPath(new URL("./fixtures/provider.mjs", import.meta.url));
const TIMEOUT_MS = 500;

let host: Host | undefined;
afterEach(async () => {
  await host?.shutdown({ timeoutMs: 2_000 });
  host = undefined;
});

function stdio(id: string, mode: string, extra: string[] = []) {
  return { id, command: process.execPath, args: [PROVIDER, mode, id, ...extra] };
}

describe("Host with real stdio providers", () => {
  it("addStdio spawns a child, lists its declared info and queries it", async () => {
    host = new Host({ warn: () => undefined });
    const listing = await host.addStdio(stdio("docs", "honest"));
    expect(listing).toMatchObject({
      id: "docs",
      transport: "stdio",
      egress: false,
      consent: "not_needed",
      protocolVersion: "ocp/1.0-draft",
    });
    expect(listing.info.name).toBe("docs");
    const result = await host.queryProvider("docs", QUERY);
    expect(result.frames.map((f) => f.citation_label)).toEqual(["docs §1", "docs §2"]);
  });

  it("C1, C2: an egress stdio child is not queried before consent, is after, and is not after revocation", async () => {
    host = new Host({ warn: () => undefined });
    await host.addStdio(stdio("uploader", "honest", ["--egress"]));
    expect(host.get("uploader").consent).toBe("required");
    const before = await host.queryAll(QUERY);
    expect(before.failures.map((f) => f.reason)).toEqual(["consent_required"]);
    await host.grantConsent("uploader", { grantedBy: "test" });
    expect((await host.queryAll(QUERY)).accepted).toHaveLength(2);
    await host.revokeConsent("uploader", { revokedBy: "test" });
    const after = await host.queryAll(QUERY);
    expect(after.failures.map((f) => f.reason)).toEqual(["consent_required"]);
  });

  it("B1, B2: over real children, a liar is dropped, a crash and a hang are reported, honest frames arrive within the per-leg timeout", async () => {
    host = new Host({ warn: () => undefined, legTimeoutMs: TIMEOUT_MS });
    await Promise.all([
      host.addStdio(stdio("liar", "liar")),
      host.addStdio(stdio("crash", "crash")),
      // The child still holds the unanswered query at shutdown: kill it after 300 ms.
      host.addStdio({ ...stdio("hang", "hang"), shutdownGraceMs: 300 }),
      host.addStdio(stdio("honest", "honest")),
    ]);
    const started = performance.now();
    const result = await host.queryAll(QUERY);
    const elapsed = performance.now() - started;
    expect(result.accepted.map((a) => a.frame.citation_label)).toEqual(["honest §1", "honest §2"]);
    // Children register in the order they finish their handshake: sort.
    expect(result.failures.map((f) => [f.providerId, f.reason]).sort()).toEqual([
      ["crash", "crashed"],
      ["hang", "timeout"],
    ]);
    expect(result.liars.map((l) => l.providerId)).toEqual(["liar"]);
    expect(result.liars[0]!.message).toContain("400 tokens for max_tokens 200");
    expect(elapsed).toBeLessThan(4 * TIMEOUT_MS);
    const report = await host.shutdown({ timeoutMs: 2_000 });
    expect(report.stragglers).toEqual([]);
    expect(report.stopped).toEqual(["crash", "hang", "honest", "liar"]);
  });

  it("the transport enforces the leg's timeout and the caller's abort: a hanging child fails fast, typed", async () => {
    host = new Host({ warn: () => undefined });
    await host.addStdio({ ...stdio("hang", "hang"), shutdownGraceMs: 300 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user pressed stop")), 50);
    const started = performance.now();
    const aborted = await host.queryProvider("hang", QUERY, { signal: controller.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isOcpError(aborted, "aborted")).toBe(true);
    expect((aborted as Error).cause).toEqual(new Error("user pressed stop"));
    // A plain child's slot stays taken until it answers: the next query waits, then times out.
    const timedOut = await host.queryProvider("hang", QUERY, { timeoutMs: 120 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isOcpError(timedOut, "timeout")).toBe(true);
    expect((timedOut as { details: { timeoutMs: number } }).details.timeoutMs).toBe(120);
    expect(performance.now() - started).toBeLessThan(5_000);
    const fanOut = await host.queryAll(QUERY, { timeoutMs: 100 });
    expect(fanOut.failures.map((f) => [f.providerId, f.reason])).toEqual([["hang", "timeout"]]);
  });

  it("refuses a duplicate id before spawning anything", async () => {
    host = new Host({ warn: () => undefined });
    await host.addStdio(stdio("one", "honest"));
    const error = await host.addStdio(stdio("one", "honest")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "duplicate_provider")).toBe(true);
    expect(host.list()).toHaveLength(1);
  });

  it("H2: refuses a child whose handshake names no provider, registering nothing", async () => {
    host = new Host({ warn: () => undefined });
    const error = await host
      .addStdio({ id: "nameless", command: process.execPath, args: [PROVIDER, "honest", ""] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isOcpError(error, "invalid_provider")).toBe(true);
    expect((error as Error).message).toContain("(H2)");
    expect(host.list()).toEqual([]);
  });
});
