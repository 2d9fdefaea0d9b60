/**
 * Issue 44 with the real `ocp-hub` CLI: `--federate` needs `--identity`, a bad
 * federate file exits 2 naming the field, and two spawned hubs link; either
 * hub killed (SIGKILL) mid-stream, the receiving one or the sending one,
 * loses nothing acknowledged and applies nothing twice once it is back.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type AgentIdentity,
  createMessage,
  generateIdentity,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { type RawAgent, rawAgent, tempDir } from "@ocp/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hubIdentity, peerEntry } from "./federation-support.js";
import { node, until } from "./support.js";

vi.setConfig({ testTimeout: 90_000 });
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const children: ChildProcess[] = [];
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const c of cleanups.splice(0)) c();
});

function hub(args: string[]): {
  child: ChildProcess;
  url: Promise<string>;
  links: Promise<string>;
  stderr: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const wait = (re: RegExp, from: () => string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = re.exec(from());
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 20);
      child.once("exit", () =>
        setTimeout(() => {
          clearInterval(timer);
          reject(new Error(err));
        }, 50),
      );
    });
  const url = wait(/^(ws:\/\/\S+)$/m, () => out);
  const links = wait(/hub links on (ws:\/\/\S+)/, () => err);
  // A child that exits on purpose (bad usage, SIGKILL) never prints them.
  url.catch(() => {});
  links.catch(() => {});
  return {
    child,
    url,
    links,
    stderr: () => err,
    exit: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
}

/**
 * Saves acme's and globex's hub keys in `dir`; `args(name)` are the
 * arguments of that organisation's hub (its SQLite file, its key, its
 * federate file `<name>.json`, which the test writes).
 */
async function hubKeys(dir: string) {
  const acmeKey = hubIdentity("acme");
  const globexKey = hubIdentity("globex");
  await saveIdentity(join(dir, "acme.key"), acmeKey);
  await saveIdentity(join(dir, "globex.key"), globexKey);
  const args = (name: "acme" | "globex") => [
    ...["--db", join(dir, `${name}.sqlite`)],
    ...["--identity", join(dir, `${name}.key`)],
    ...["--federate", join(dir, `${name}.json`)],
  ];
  return { acmeKey, globexKey, args };
}

/** `sendOne(i)`: streams public node `<prefix>-<i>` from `from` to `to` through `agent`; the message id. */
function streamer(agent: RawAgent, from: AgentIdentity, to: AgentIdentity, prefix: string) {
  return (i: number): string => {
    const m = createMessage({
      type: "ocp.knowledge.stream",
      from: from.id,
      to: to.id,
      payload: {
        streamId: "s",
        nodes: [node(from.id, `${prefix}-${i}`, { visibility: "public" })],
        edges: [],
        isIncremental: true,
        sequenceNumber: i,
      },
    } as Parameters<typeof createMessage>[0]);
    agent.send(JSON.stringify(signObject(m, from.secretKey)));
    return m.id;
  };
}

/** Sends message 0 again until `bob` has it (the agents' cards cross first). */
function firstAcross(bob: RawAgent, sendOne: (i: number) => string, marker: string) {
  return until(
    () => {
      if (!bob.delivered().some((d) => d.includes(marker))) sendOne(0);
      return bob.delivered().some((d) => d.includes(marker));
    },
    "the first message across",
    30_000,
  );
}

describe("ocp-hub --federate", () => {
  it("needs --identity, and exits 2 naming the field of a bad federate file", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const file = join(dir, "fed.json");
    writeFileSync(
      file,
      JSON.stringify({
        peers: [{ hubId: "a2a://x-hub", publicKey: "short", agents: ["a2a://x/"] }],
      }),
    );
    const noIdentity = hub(["--db", join(dir, "a.sqlite"), "--federate", file]);
    expect(await noIdentity.exit).toBe(2);
    expect(noIdentity.stderr()).toContain("--federate needs --identity");
    const bad = hub([
      "--db",
      join(dir, "b.sqlite"),
      "--identity",
      join(dir, "id.key"),
      "--federate",
      file,
    ]);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toContain("peers.0.publicKey");
  });

  it("two spawned hubs link; killing the receiving hub mid-stream loses nothing acknowledged and applies nothing twice", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const { acmeKey, globexKey, args } = await hubKeys(dir);
    writeFileSync(
      join(dir, "acme.json"),
      JSON.stringify({ listen: { port: 0 }, peers: [peerEntry("globex", globexKey)] }),
    );
    const acme = hub(args("acme"));
    const acmeLinks = await acme.links;
    writeFileSync(
      join(dir, "globex.json"),
      JSON.stringify({ peers: [peerEntry("acme", acmeKey, acmeLinks)] }),
    );
    let globex = hub(args("globex"));
    const alice = generateIdentity("a2a://acme/alice");
    const bobId = generateIdentity("a2a://globex/bob");
    const a = await rawAgent(await acme.url, alice, 10_000, { profile: { visibility: "public" } });
    let bob = await rawAgent(await globex.url, bobId, 10_000, {
      profile: { visibility: "public" },
    });
    const acked: string[] = [];
    const sendOne = streamer(a, alice, bobId, "n");
    // The first reaches bob once alice's and bob's cards crossed.
    await firstAcross(bob, sendOne, "n-0");
    const ids: string[] = [];
    for (let i = 1; i <= 40; i++) {
      ids.push(sendOne(i));
      if (i === 20) globex.child.kill("SIGKILL"); // mid-stream
    }
    await until(
      () =>
        ids.every((id) =>
          a.controls().some((c) => c.type === "ocp.hub.ack" && c.payload["id"] === id),
        ),
      "every ack",
    );
    for (const id of ids) acked.push(id);
    bob.close();
    await globex.exit;
    globex = hub(args("globex"));
    bob = await rawAgent(await globex.url, bobId, 10_000, { profile: { visibility: "public" } });
    await until(
      () => acked.every((id) => bob.delivered().some((d) => d.includes(id))),
      "every acknowledged message after the restart",
      60_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 1; i <= 40; i++) {
      expect(bob.delivered().filter((d) => d.includes(`"n-${i}"`)).length).toBe(1);
    }
    bob.close();
    a.close();
  });

  it("killing the sending hub mid-stream loses nothing it acknowledged: its outbox is forwarded after the restart, once", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const { acmeKey, globexKey, args } = await hubKeys(dir);
    // globex accepts, acme dials: a restarted acme finds globex where it was.
    writeFileSync(
      join(dir, "globex.json"),
      JSON.stringify({ listen: { port: 0 }, peers: [peerEntry("acme", acmeKey)] }),
    );
    const globex = hub(args("globex"));
    writeFileSync(
      join(dir, "acme.json"),
      JSON.stringify({ peers: [peerEntry("globex", globexKey, await globex.links)] }),
    );
    let acme = hub(args("acme"));
    const alice = generateIdentity("a2a://acme/alice");
    const bobId = generateIdentity("a2a://globex/bob");
    let a = await rawAgent(await acme.url, alice, 10_000, { profile: { visibility: "public" } });
    const bob = await rawAgent(await globex.url, bobId, 10_000, {
      profile: { visibility: "public" },
    });
    const sendOne = streamer(a, alice, bobId, "k");
    await firstAcross(bob, sendOne, '"k-0"');
    const ids: string[] = [];
    for (let i = 1; i <= 200; i++) ids.push(sendOne(i));
    // Kill acme once some of the burst is acknowledged, while the rest is in flight.
    const ackedNow = () =>
      ids.filter((id) =>
        a.controls().some((c) => c.type === "ocp.hub.ack" && c.payload["id"] === id),
      );
    await until(() => ackedNow().length >= 50, "part of the burst acked");
    acme.child.kill("SIGKILL");
    await acme.exit;
    const acked = ackedNow();
    a.close();
    expect(acked.length).toBeGreaterThanOrEqual(50);
    acme = hub(args("acme"));
    await acme.url;
    await until(
      () => acked.every((id) => bob.delivered().some((d) => d.includes(id))),
      "every acknowledged message after the restart",
      60_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    for (const id of ids)
      expect(bob.delivered().filter((d) => d.includes(id)).length).toBeLessThanOrEqual(1);
    a = await rawAgent(await acme.url, alice, 10_000, { profile: { visibility: "public" } });
    a.close();
    bob.close();
  });
});
