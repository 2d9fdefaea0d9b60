import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HUB_ERROR_CODES } from "@ocp/a2a-ocp-messaging/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as limits from "../src/limits.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(dir, "README.md"), "utf8");
/** The limits and error tables live in docs/reference.md, linked from the README. */
const reference = readFileSync(join(dir, "docs", "reference.md"), "utf8");
const source = readdirSync(join(dir, "src"))
  .filter((file) => file.endsWith(".ts"))
  .map((file) => readFileSync(join(dir, "src", file), "utf8"))
  .join("\n");

function section(name: string): string {
  const text = name === "limits" || name === "errors" ? reference : readme;
  const start = text.indexOf(`<!-- ${name} -->`);
  const end = text.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
}

/**
 * The example needs a running hub. `@ocp/a2a-ocp-hub` depends on this package
 * (its tests use the client), so it cannot be a dependency here: the test runs
 * the hub CLI of the workspace's built hub package, as a reader would run
 * `npx ocp-hub`. `pnpm build` (or `pnpm test`) builds it first.
 */
const HUB_CLI = fileURLToPath(new URL("../../a2a-ocp-hub/dist/cli.js", import.meta.url));

describe("README", () => {
  let hub: ChildProcess | undefined;
  let url = "";
  const work = mkdtempSync(join(tmpdir(), "ocp-client-readme-"));

  beforeAll(async () => {
    if (!existsSync(HUB_CLI)) {
      throw new Error(`${HUB_CLI} is missing: run \`pnpm build\` at the repository root first`);
    }
    const child = spawn(process.execPath, [HUB_CLI, "--db", join(work, "hub.sqlite")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    hub = child;
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the hub did not start in 60 s")), 60_000);
      createInterface({ input: child.stdout! }).once("line", (line) => {
        clearTimeout(timer);
        resolve(line.trim());
      });
      child.once("exit", (code) => reject(new Error(`the hub exited with ${code}`)));
    });
  }, 70_000);

  afterAll(async () => {
    if (hub !== undefined && hub.exitCode === null) {
      const exited = new Promise((resolve) => hub!.once("exit", resolve));
      hub.kill("SIGTERM");
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  it("shows what example/hub-client.mjs really prints against an ocp-hub process (run against dist)", async () => {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["example/hub-client.mjs", url],
        { cwd: dir, encoding: "utf8", timeout: 60_000 },
        (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr))),
      );
    });
    expect(section("example-output")).toContain(output.trim());
  }, 90_000);

  it("opens with a complete program: its first js block, run as written with its own in-process hub, prints the output shown and exits 0", async () => {
    const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(code).toContain("await hub.close();");
    // The packages the install line names, as an install lays them out (the built workspace ones).
    const app = join(work, "app");
    mkdirSync(join(app, "node_modules", "@ocp"), { recursive: true });
    for (const name of ["a2a-ocp-client", "a2a-ocp-messaging", "a2a-ocp-hub"]) {
      symlinkSync(join(dir, "..", name), join(app, "node_modules", "@ocp", name), "dir");
    }
    expect(readme).toContain(
      "npm install @ocp/a2a-ocp-client @ocp/a2a-ocp-messaging @ocp/a2a-ocp-hub",
    );
    writeFileSync(join(app, "first.mjs"), code);
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["first.mjs"],
        { cwd: app, encoding: "utf8", timeout: 60_000 },
        (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr))),
      );
    });
    expect(section("example-output")).toContain(output.trim());
  }, 90_000);

  it("lists every limit constant with its value", () => {
    const table = section("limits");
    const entries = Object.entries(limits);
    expect(entries.length).toBeGreaterThan(0);
    for (const [name, value] of entries) {
      expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
  });

  it("lists every error code the client raises", () => {
    const table = section("errors");
    const raised = new Set(
      [...source.matchAll(/clientError\(\s*"([a-z_]+)"/g)].map((match) => match[1]!),
    );
    for (const [code, meaning] of Object.entries(HUB_ERROR_CODES)) {
      if (meaning.startsWith("client:")) raised.add(code);
    }
    // Raised through the typed factory (hub_timeout, not_connected, hub_backlog, feature_not_negotiated, replay_detected).
    expect(raised.size).toBeGreaterThanOrEqual(5);
    for (const code of raised) expect(table).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
  });

  it("documents every option of HubClientOptions", () => {
    const optionsSource = readFileSync(join(dir, "src", "options.ts"), "utf8");
    const body = optionsSource.slice(
      optionsSource.indexOf("export interface HubClientOptions"),
      optionsSource.indexOf("\n}", optionsSource.indexOf("export interface HubClientOptions")),
    );
    const options = [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1]!);
    expect(options.length).toBeGreaterThan(5);
    const table = section("options");
    for (const option of options) {
      expect(table).toMatch(new RegExp(`\\|\\s*\`${option}\`\\s*\\|`));
    }
  });
});
