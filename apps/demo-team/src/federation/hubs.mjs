// The federation demo's organisations: for each one a hub identity file, a
// federate file naming the other organisation's hub, and a real `ocp-hub`
// process (SQLite in the demo's temporary directory) that can be killed and
// started again on the same files and ports.
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { hubCli } from "../processes.mjs";
import { bounded } from "../wait.mjs";

/** A free TCP port on loopback (so that a hub killed and started again keeps its URLs). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * One organisation: `name`'s hub key (`a2a://<name>-hub`, saved 0600 for
 * `--identity`), its ports, and its agents' id prefix `a2a://<name>/`.
 */
export async function organisation(dir, name) {
  const identity = generateIdentity(`a2a://${name}-hub`);
  const identityFile = join(dir, `${name}-hub.key`);
  await saveIdentity(identityFile, identity);
  return {
    name,
    hubId: identity.id,
    publicKey: Buffer.from(identity.publicKey).toString("base64"),
    identityFile,
    db: join(dir, `${name}.sqlite`),
    federateFile: join(dir, `${name}-federate.json`),
    port: await freePort(),
    linkPort: await freePort(),
    prefix: `a2a://${name}/`,
  };
}

/**
 * Writes `org`'s federate file: it accepts hub links on its link port and
 * lists `peer` (dialled when `dial`), whose agents are `peer.prefix`, with
 * collective queries opted in both ways.
 */
export function writeFederateFile(org, peer, dial) {
  const file = {
    listen: { host: "127.0.0.1", port: org.linkPort },
    peers: [
      {
        hubId: peer.hubId,
        publicKey: peer.publicKey,
        ...(dial ? { url: `ws://127.0.0.1:${peer.linkPort}/` } : {}),
        agents: [peer.prefix],
        queries: true,
      },
    ],
  };
  writeFileSync(org.federateFile, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}

/** Starts `org`'s `ocp-hub --federate` process; resolves once it printed its URL. */
export function startHub(org, children) {
  const child = spawn(
    process.execPath,
    [
      hubCli,
      "--db",
      org.db,
      "--port",
      String(org.port),
      "--identity",
      org.identityFile,
      "--federate",
      org.federateFile,
      ...(org.allowFile === undefined ? [] : ["--allow", org.allowFile]),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.add(child);
  child.once("exit", () => children.delete(child));
  const stderr = [];
  createInterface({ input: child.stderr }).on("line", (line) => stderr.push(line));
  const url = bounded(
    new Promise((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) =>
        reject(new Error(`${org.name}'s hub exited (${code}): ${stderr.join(" | ")}`)),
      );
    }),
    `${org.name}'s hub to start`,
  );
  return url.then((hubUrl) => ({
    url: hubUrl,
    child,
    stderr,
    /** SIGKILL: no shutdown, no flush; resolves once the process is gone. */
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", resolve);
        child.kill("SIGKILL");
      }),
  }));
}

/** `org`'s audit log as `ocp-hub audit --json` prints it (read-only; the hub may be running). */
export function auditLog(org, event) {
  const run = spawnSync(
    process.execPath,
    [hubCli, "audit", "--db", org.db, "--json", ...(event ? ["--event", event] : [])],
    { encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`ocp-hub audit --db ${org.db}: ${run.stderr.trim()}`);
  return run.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}
