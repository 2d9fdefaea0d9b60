import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostCli } from "./helpers.js";

let dir: string;

/** A provider that answers the handshake, records its pid, and never answers a query. */
const HANGING_PROVIDER = `
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
writeFileSync(process.argv[2], String(process.pid));
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "handshake") {
    process.stdout.write(JSON.stringify({ type: "handshake_ack", protocol_version: "ocp/1.0-draft",
      provider: { name: "hang", version: "1", data_flow: { reads: true, writes: false, egress: false } },
      capabilities: { query: { kinds: ["doc"], filters: [] } } }) + "\\n");
  } else if (msg.type === "query") {
    writeFileSync(process.argv[2] + ".query", "received");
  }
});
process.on("SIGTERM", () => {});
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-int-"));
  writeFileSync(join(dir, "hang.mjs"), HANGING_PROVIDER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("Ctrl-C mid-query", () => {
  it("shuts every provider down and exits 130", async () => {
    const pidFile = join(dir, "pid");
    const host = spawn(
      process.execPath,
      [
        hostCli,
        "--stdio",
        `hang=${process.execPath} ${join(dir, "hang.mjs")} ${pidFile}`,
        "--timeout",
        "60000",
        "--consent-file",
        join(dir, "c.jsonl"),
        "anything",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    host.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    for (let waited = 0; !existsSync(`${pidFile}.query`); waited += 50) {
      if (waited > 20_000) throw new Error(`no query in flight: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(alive(pid)).toBe(true);
    host.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) =>
      host.once("exit", (c) => resolve(c)),
    );
    expect(code).toBe(130);
    expect(stderr).toContain("interrupted");
    expect(alive(pid)).toBe(false);
  }, 30_000);
});
