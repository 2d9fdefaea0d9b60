/**
 * The README against the code: the CLI help it shows is what
 * `ocp-demo-provider --help` prints (dist/cli.js), and its limits table lists
 * every constant of src/limits.ts with its value.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { packageDocs } from "@ocp/testkit/readme";
import { describe, expect, it } from "vitest";
import * as limits from "../src/limits.js";

const run = promisify(execFile);
const { section } = packageDocs(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

describe("README", () => {
  it("shows exactly what `ocp-demo-provider --help` prints", async () => {
    const { stdout } = await run(process.execPath, [cli, "--help"]);
    const shown = /```text\n([\s\S]*?)```/.exec(section("cli-help"))?.[1] ?? "";
    expect(shown.trim()).toBe(stdout.trim());
  });

  it("lists every constant of src/limits.ts with its value, and nothing else", () => {
    const table = section("limits");
    const rows = [...table.matchAll(/^\|\s*`(\w+)`\s*\|\s*([^|]+?)\s*\|/gm)]
      .map(([, name, value]) => `${name} = ${value}`)
      .sort();
    const expected = Object.entries(limits)
      .map(([name, value]) => `${name} = ${String(value)}`)
      .sort();
    expect(rows).toEqual(expected);
  });
});
