/**
 * `ocp-test` on a real terminal: `--json` prints only JSON on stdout even when
 * stdout is a terminal; the text report's header is dimmed on a terminal
 * unless NO_COLOR is set, and never when stdout is a pipe.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { colourEnv, ESC, onTerminal } from "@ocp/testkit/terminal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HubChild, startHubChild } from "./hub-child.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

let hub: HubChild;
let url: string;

beforeAll(async () => {
  hub = await startHubChild("ocp-test-tty-");
  url = hub.url;
}, 60_000);

afterAll(() => hub.stop());

const FEW = ["--only", "lifecycle,signatures"];

describe("ocp-test on a terminal", () => {
  it("--json prints one JSON document and no escape sequence, stdout a terminal", () => {
    const run = onTerminal([CLI, "--hub", url, ...FEW, "--json"], colourEnv());
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(JSON.parse(run.stdout)).toMatchObject({ conformant: true });
  }, 120_000);

  it("dims the text report's header on a terminal, and not with NO_COLOR=1", () => {
    const coloured = onTerminal([CLI, "--hub", url, ...FEW], colourEnv());
    expect(coloured.status).toBe(0);
    expect(coloured.stdout).toContain(`${ESC}[`);
    const plain = onTerminal([CLI, "--hub", url, ...FEW], colourEnv("1"));
    expect(plain.status).toBe(0);
    expect(plain.stdout).not.toContain(ESC);
    expect(plain.stdout).toContain("signatures");
  }, 120_000);

  it("writes no escape sequence when stdout is a pipe, NO_COLOR unset", () => {
    const piped = spawnSync(process.execPath, [CLI, "--hub", url, ...FEW], {
      encoding: "utf8",
      env: colourEnv() as NodeJS.ProcessEnv,
      timeout: 90_000,
    });
    expect(piped.status).toBe(0);
    expect(piped.stdout).toContain("signatures");
    expect(piped.stdout).not.toContain(ESC);
  }, 120_000);
});
