import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostCli, startHttpProvider } from "./helpers.js";

let dir: string;
let http: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-tty-"));
  writeFileSync(
    join(dir, "consent.md"),
    "# Consent\n\nConsent is recorded as append-only receipts.\n",
  );
  ({ child: http, url } = await startHttpProvider(["--quiet", join(dir, "consent.md")]));
});

afterAll(() => {
  http?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the host on a pseudo-terminal (util-linux `script`), answers its
 * consent question with `answer` once it is asked, and returns what the
 * terminal showed.
 */
function onTerminal(consentFile: string, answer: string): Promise<string> {
  const command = [
    process.execPath,
    hostCli,
    "--http",
    `remote=${url}`,
    "--consent-file",
    consentFile,
    "--json",
    "how is consent recorded",
  ]
    .map((word) => `'${word}'`)
    .join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  let answered = false;
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      screen += chunk.toString();
      if (!answered && screen.includes("Allow it? [y/N]")) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.once("error", reject);
    child.once("exit", () => resolve(screen));
  });
}

describe("consent asked on a terminal (C1)", () => {
  it("names the provider and what leaves; yes records a receipt and the provider is queried", async () => {
    const consentFile = join(dir, "yes.jsonl");
    const screen = await onTerminal(consentFile, "y");
    expect(screen).toContain('Provider "remote"');
    expect(screen).toMatch(/What leaves: every query payload .* is sent to the remote endpoint/);
    expect(screen).toContain('"consent": "granted"');
    expect(screen).toContain("consent.md L1-3");
    const [receipt] = readFileSync(consentFile, "utf8").trim().split("\n");
    expect(JSON.parse(receipt ?? "{}")).toMatchObject({ op: "grant", provider: "remote" });
  });

  it("anything but yes leaves it unconsented: nothing recorded, nothing sent (C2)", async () => {
    const consentFile = join(dir, "no.jsonl");
    const screen = await onTerminal(consentFile, "");
    expect(screen).toContain("no consent for egress");
    expect(screen).toContain('"reason": "consent_required"');
    expect(() => readFileSync(consentFile, "utf8")).toThrow();
  });
});
