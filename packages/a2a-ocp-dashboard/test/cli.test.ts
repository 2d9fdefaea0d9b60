/**
 * `ocp-hub --dashboard` (the hub's built CLI loading this package): off
 * loopback without a token it exits 2 and says why; with the token in
 * OCP_HUB_DASHBOARD_TOKEN it serves, and only requests that carry it; with
 * `--federate` it shows the Federation view.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { tempDir } from "@ocp/testkit";
import { afterEach, expect, it } from "vitest";
import type { Snapshot } from "../src/index.js";
import { startHubProcess, stopProcesses } from "./support.js";

const hubCli = join(
  dirname(createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json")),
  "dist",
  "cli.js",
);
const dirs: Array<{ cleanup: () => void }> = [];

afterEach(async () => {
  await stopProcesses();
  for (const dir of dirs.splice(0)) dir.cleanup();
});

it("exits 2 off loopback without a token", async () => {
  const dir = tempDir("ocp-dashboard-cli-");
  dirs.push(dir);
  const env = { ...process.env };
  delete env["OCP_HUB_DASHBOARD_TOKEN"];
  const child = spawn(
    process.execPath,
    [hubCli, "--db", join(dir.dir, "hub.sqlite"), "--dashboard", "--dashboard-host", "0.0.0.0"],
    { stdio: ["ignore", "ignore", "pipe"], env },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(2);
  expect(stderr).toMatch(/refusing to serve the dashboard on 0\.0\.0\.0 without a token/);
}, 60_000);

it("off loopback with a token, serves only requests that carry it", async () => {
  const dir = tempDir("ocp-dashboard-cli-");
  dirs.push(dir);
  process.env["OCP_HUB_DASHBOARD_TOKEN"] = "cli-test-token";
  try {
    const { dashboardUrl } = await startHubProcess(dir.dir, ["--dashboard-host", "0.0.0.0"]);
    const port = new URL(dashboardUrl).port;
    const base = `http://127.0.0.1:${port}/`;
    expect((await fetch(base)).status).toBe(401);
    const ok = await fetch(`${base}snapshot.json`, {
      headers: { authorization: "Bearer cli-test-token" },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toHaveProperty("health");
  } finally {
    delete process.env["OCP_HUB_DASHBOARD_TOKEN"];
  }
}, 60_000);

it("ocp-hub --federate FILE --dashboard serves the Federation view of the hub's federation", async () => {
  const dir = tempDir("ocp-dashboard-cli-");
  dirs.push(dir);
  const peer = generateIdentity("a2a://globex-hub");
  const file = join(dir.dir, "federate.json");
  writeFileSync(
    file,
    JSON.stringify({
      listen: { host: "127.0.0.1", port: 0 },
      peers: [
        {
          hubId: peer.id,
          publicKey: Buffer.from(peer.publicKey).toString("base64"),
          agents: ["a2a://globex/"],
        },
      ],
    }),
  );
  const { dashboardUrl } = await startHubProcess(dir.dir, [
    "--identity",
    join(dir.dir, "hub.key"),
    "--federate",
    file,
  ]);
  const snapshot = (await (await fetch(`${dashboardUrl}snapshot.json`)).json()) as Snapshot;
  expect(snapshot.federation?.peers).toEqual([
    expect.objectContaining({ hubId: peer.id, open: false, agents: 0 }),
  ]);
}, 60_000);
