/**
 * The federation checks (issue 44): `ocp-test --federation-fixture DIR`
 * prints the fixture's peers, a real `ocp-hub --federate` process listing
 * them passes all five through the `ocp-test` CLI, and a hub whose
 * re-checks are turned off one at a time (an in-process `OCPHub` with
 * `Federation` from `@ocp/a2a-ocp-hub/federation`, its pieces patched in
 * the test) fails the check that judges that re-check.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { FederatedStore, Federation, parseFederationConfig } from "@ocp/a2a-ocp-hub/federation";
import { generateIdentity, verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { profilePublicKey } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureInit } from "../src/cli-args.js";
import { loadFixture } from "../src/federation-fixture.js";
import { parseArgs, runCompatibility } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "..", "dist", "cli.js");
const HUB_CLI = join(
  dirname(createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json")),
  "dist",
  "cli.js",
);
const FEDERATION_CHECKS = [
  "federation-forged",
  "federation-replay",
  "federation-identity",
  "federation-withheld",
  "federation-flood",
];

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ocp-test-federation-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real `ocp-hub` process federating with the fixture's peers; its agent URL and hub-link URL. */
async function startHubProcess(dir: string, peers: unknown) {
  const federate = join(dir, "federate.json");
  writeFileSync(
    federate,
    JSON.stringify({ listen: { host: "127.0.0.1", port: 0 }, ...(peers as object) }),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [
      HUB_CLI,
      "--db",
      join(dir, "hub.sqlite"),
      "--identity",
      join(dir, "hub.key"),
      "--federate",
      federate,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  );
  const url = new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once("line", resolve),
  );
  const link = new Promise<string>((resolve) =>
    createInterface({ input: child.stderr! }).on("line", (line) => {
      const found = /hub links on (ws:\/\/\S+)/.exec(line);
      if (found) resolve(found[1]!);
    }),
  );
  return { url: await url, link: await link };
}

/** An in-process hub federating with the fixture's peers, for a test to break one re-check of. */
async function startInProcess(dir: string, budget?: { bytes: number }, crossingOff = false) {
  const fixture = await loadFixture(join(dir, "fixture"));
  const config = parseFederationConfig({
    listen: { host: "127.0.0.1", port: 0 },
    peers: fixture.peers,
  });
  const dbPath = join(dir, "hub.sqlite");
  // The crossing rule off: the outbox hooks the federation sets while it is built answer "may cross" to everything.
  const useHooks = FederatedStore.prototype.useHooks;
  if (crossingOff) {
    FederatedStore.prototype.useHooks = function (this: FederatedStore, hooks) {
      useHooks.call(this, { ...hooks, withheld: async () => undefined });
    };
  }
  let federation: Federation;
  try {
    federation = new Federation({
      config,
      dbPath,
      onError: () => {},
      ...(budget ? { budget } : {}),
    });
  } finally {
    FederatedStore.prototype.useHooks = useHooks;
  }
  const hub = await OCPHub.start({
    dbPath,
    identity: generateIdentity("a2a://hub-under-test"),
    store: federation.store,
  });
  await federation.start(hub);
  cleanups.push(async () => {
    await federation.close();
    await hub.close();
  });
  return {
    hub,
    federation,
    target: { hub: hub.url, federation: { link: federation.url!, keys: fixture.keys } },
  };
}

const statuses = (report: Awaited<ReturnType<typeof runCompatibility>>) =>
  Object.fromEntries(report.checks.map((c) => [c.name, c.status]));

describe("federation checks (ocp-test --hub URL --federation-fixture DIR --federation-link URL)", () => {
  it("a real ocp-hub --federate process listing the fixture's printed peers passes all five", async () => {
    const dir = tempDir();
    const init = spawnSync(process.execPath, [CLI, "--federation-fixture", join(dir, "fixture")], {
      encoding: "utf8",
    });
    expect(init.status).toBe(0);
    const peers = JSON.parse(init.stdout) as { peers: Array<{ hubId: string }> };
    expect(peers.peers.map((p) => p.hubId)).toEqual([
      "a2a://ocp-test-peer-hub",
      "a2a://ocp-test-honest-hub",
    ]);
    const { url, link } = await startHubProcess(dir, peers);
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          CLI,
          "--hub",
          url,
          "--federation-fixture",
          join(dir, "fixture"),
          "--federation-link",
          link,
          "--json",
          "--strict",
          "--only",
          FEDERATION_CHECKS.join(","),
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let stdout = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.once("exit", (code) => resolve({ code, stdout }));
    });
    const report = JSON.parse(run.stdout) as {
      checks: Array<{ name: string; status: string; evidence: string }>;
    };
    expect(report.checks.map((c) => [c.name, c.status, c.evidence])).toEqual(
      FEDERATION_CHECKS.map((name) => [name, "pass", expect.any(String)]),
    );
    expect(run.code).toBe(0);
  }, 120_000);

  it("without the fixture the federation checks are skipped, naming the options", async () => {
    const dir = tempDir();
    const hub = await OCPHub.start({ dbPath: join(dir, "hub.sqlite") });
    cleanups.push(() => hub.close());
    const report = await runCompatibility({ hub: hub.url }, { only: FEDERATION_CHECKS });
    expect(report.checks.every((c) => c.status === "skipped")).toBe(true);
    expect(report.checks[0]!.evidence).toContain("--federation-fixture DIR --federation-link URL");
  });

  it("a hub that takes any card a peer vouches for (spoofing re-check off) fails federation-identity and federation-forged", async () => {
    const dir = tempDir();
    const { federation, target } = await startInProcess(dir);
    const registry = federation.registry;
    const taken = new Map<string, ReturnType<typeof registry.get> & object>();
    const get = registry.get.bind(registry);
    registry.vouch = (peer, card) => {
      const verified = verifyAgentProfile(card, nativeEd25519);
      if (!verified.ok) return { code: "invalid_profile", reason: verified.error.message };
      const agent = {
        peer: peer.hubId,
        profile: verified.value,
        key: profilePublicKey(verified.value),
      };
      taken.set(agent.profile.id, agent);
      return agent;
    };
    registry.get = (id) => taken.get(id) ?? get(id);
    const report = await runCompatibility(target, {
      only: ["federation-identity", "federation-forged"],
    });
    expect(statuses(report)).toEqual({
      "federation-identity": "fail",
      "federation-forged": "fail",
    });
    const evidence = (name: string) => report.checks.find((c) => c.name === name)!.evidence;
    expect(evidence("federation-identity")).toContain("a card with a local agent's id: ");
    expect(evidence("federation-identity")).toContain("not federation_spoofed");
    expect(evidence("federation-forged")).toContain(
      "a message in a local agent's name was answered ack",
    );
  }, 60_000);

  it("a hub that applies a message again under a new seq (replay re-check off) fails federation-replay", async () => {
    const dir = tempDir();
    const { federation, target } = await startInProcess(dir);
    const inner = federation.store.inner;
    const commit = inner.commit.bind(inner);
    inner.commit = async (batch) =>
      (await commit(batch.map((m) => ({ ...m, id: `${m.id}-${Math.random()}` })))).map((o, i) => ({
        ...o,
        id: batch[i]!.id,
      }));
    const report = await runCompatibility(target, { only: ["federation-replay"] });
    expect(statuses(report)).toEqual({ "federation-replay": "fail" });
    expect(report.checks[0]!.evidence).toContain("not replay_detected");
  }, 60_000);

  it("a hub that lets its agents' workspace knowledge out (crossing rule off on the sending side) fails federation-withheld", async () => {
    const dir = tempDir();
    const { target } = await startInProcess(dir, undefined, true);
    const report = await runCompatibility(target, { only: ["federation-withheld"] });
    expect(statuses(report)).toEqual({ "federation-withheld": "fail" });
    expect(report.checks[0]!.evidence).toMatch(/went over the link: ocp-test-fed-workspace-/);
  }, 60_000);

  it("a hub whose peer budget is above the flood (no effective budget) fails federation-flood", async () => {
    const dir = tempDir();
    const { target } = await startInProcess(dir, { bytes: 1_000_000_000 });
    const report = await runCompatibility(target, { only: ["federation-flood"] });
    expect(statuses(report)).toEqual({ "federation-flood": "fail" });
    expect(report.checks[0]!.evidence).toContain("the flood:");
  }, 60_000);

  it("usage: the fixture and the link go together, only with --hub; the link is a ws(s) URL; the fixture alone is the init form", () => {
    const usage = (argv: string[]) => {
      const parsed = parseArgs(argv);
      return parsed.kind === "usage-error" ? parsed.message : parsed.kind;
    };
    expect(usage(["--hub", "ws://h/", "--federation-fixture", "d"])).toContain("need both");
    expect(usage(["--hub", "ws://h/", "--federation-link", "ws://l/"])).toContain("need both");
    expect(
      usage(["--agent", "ws://a/", "--federation-fixture", "d", "--federation-link", "ws://l/"]),
    ).toContain("go with --hub");
    expect(
      usage(["--hub", "ws://h/", "--federation-fixture", "d", "--federation-link", "http://l/"]),
    ).toContain("ws:// or wss://");
    expect(
      usage(["--hub", "ws://h/", "--federation-fixture", "d", "--federation-link", "ws://l/"]),
    ).toBe("run");
    expect(fixtureInit(["--federation-fixture", "d"])).toBe("d");
    expect(fixtureInit(["--federation-fixture=d"])).toBe("d");
    expect(fixtureInit(["--federation-fixture", "d", "--hub", "ws://h/"])).toBeUndefined();
  });
});
