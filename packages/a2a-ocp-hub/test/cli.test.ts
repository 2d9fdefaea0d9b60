import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HubClient } from "@ocp/a2a-ocp-client";
import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import { identity, tempDir } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

describe("ocp-hub CLI", () => {
  it("--help describes the options, loopback and the SQLite default, and exits 0", () => {
    const help = execFileSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    expect(help).toContain("Usage: ocp-hub");
    expect(help).toContain("127.0.0.1");
    expect(help).toContain("--db FILE");
    expect(help).toContain("ocp-hub.sqlite");
  });

  it("--version prints the package version and exits 0", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-v"]) {
      expect(execFileSync(process.execPath, [CLI, flag], { encoding: "utf8" })).toBe(
        `${pkg.version}\n`,
      );
    }
  }, 30_000);

  it("-h prints the same usage as --help and exits 0", () => {
    const help = execFileSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    expect(execFileSync(process.execPath, [CLI, "-h"], { encoding: "utf8" })).toBe(help);
  }, 30_000);

  it("refuses NATS ping settings out of range, or without --nats, with exit code 2", () => {
    const nats = ["--nats", "nats://127.0.0.1:1"];
    for (const args of [
      [...nats, "--nats-ping-interval", "50"],
      [...nats, "--nats-ping-interval", "1.5"],
      [...nats, "--nats-max-pings-out", "0"],
      ["--nats-ping-interval", "1000"],
      ["--nats-max-pings-out", "2"],
    ]) {
      expect(() =>
        execFileSync(process.execPath, [CLI, ...args], { encoding: "utf8", stdio: "pipe" }),
      ).toThrow(expect.objectContaining({ status: 2 }));
    }
  }, 30_000); // five CLI starts

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--port", "-5"], "Option '--port' argument is ambiguous"],
    [["--port=-5"], "--port: "],
    [["--synchronous", "OFF"], "--synchronous: "],
    [
      ["--workspace", "team"],
      "--workspace, --nats-replicas, --nats-ping-interval, --nats-max-pings-out need --nats",
    ],
    [["extra"], "Unexpected argument 'extra'"],
    [["--allow-origin", "nonsense"], "--allow-origin takes an origin"],
  ])(
    "bad usage %j exits 2 with one line naming the problem and a hint, not the usage",
    (args, reason) => {
      const result = spawnSync(process.execPath, [CLI, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 15_000,
      });
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^ocp-hub: /);
      expect(lines[0]).toContain(reason);
      expect(lines[1]).toBe('run "ocp-hub --help" for usage');
      expect(lines[2]).toBe("");
    },
  );

  it("--help says loudly that registration is open without --allow, first come first pinned", () => {
    const help = execFileSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    expect(help).toContain("--allow FILE");
    expect(help).toContain("registration is OPEN");
    expect(help).toContain("first come, first pinned");
  });

  it("--allow FILE admits the listed agents only (id and key), and says so on stderr", async () => {
    const dir = tempDir("ocp-hub-allow-");
    const alice = identity("alice");
    const mallory = identity("mallory");
    const file = join(dir.dir, "team.json");
    writeFileSync(file, JSON.stringify({ profiles: [createAgentProfile(alice)] }));
    const child = spawn(
      process.execPath,
      [CLI, "--db", join(dir.dir, "hub.sqlite"), "--allow", file],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.once("exit", (code) => reject(new Error(`ocp-hub exited ${code}: ${stderr}`)));
        createInterface({ input: child.stdout }).once("line", resolve);
      });
      const admitted = new HubClient({ url, identity: alice, reconnect: false });
      await admitted.connect();
      await admitted.close();
      const refused = new HubClient({ url, identity: mallory, reconnect: false });
      await expect(refused.connect()).rejects.toMatchObject({ code: "registration_refused" });
      // Alice's id with another key is refused too.
      const impostor = new HubClient({
        url,
        identity: { ...identity("x"), id: alice.id },
        reconnect: false,
      });
      await expect(impostor.connect()).rejects.toMatchObject({ code: "registration_refused" });
      expect(stderr).toContain("registration limited to the 1 profiles");
      // The hub depends on sodium-native, which ships a build for linux x64 (where CI runs).
      expect(stderr).toMatch(
        process.platform === "linux" && process.arch === "x64"
          ? /, Ed25519 by libsodium\n/
          : /, Ed25519 by (libsodium|openssl)\n/,
      );
    } finally {
      child.kill("SIGTERM");
      dir.cleanup();
    }
  });

  it("without --allow, warns on stderr that registration is open; an unreadable --allow file exits 2", async () => {
    const dir = tempDir("ocp-hub-open-");
    const child = spawn(process.execPath, [CLI, "--db", join(dir.dir, "hub.sqlite")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    try {
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (stderr.includes("registration is OPEN")) {
            clearInterval(check);
            resolve();
          }
        }, 20);
      });
    } finally {
      child.kill("SIGTERM");
    }
    expect(() =>
      execFileSync(process.execPath, [CLI, "--allow", join(dir.dir, "missing.json")], {
        encoding: "utf8",
        stdio: "pipe",
      }),
    ).toThrow(expect.objectContaining({ status: 2 }));
    dir.cleanup();
  }, 15_000);
});
