import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { packageDocs, tableRow } from "@ocp/testkit/readme";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

const run = promisify(execFile);
const { readme, section } = packageDocs(new URL("..", import.meta.url));
const exampleFile = fileURLToPath(new URL("../example/first-run.mjs", import.meta.url));
const example = readFileSync(exampleFile, "utf8");

describe("README", () => {
  it("opens with example/first-run.mjs verbatim, a complete program (its own hub) that prints what the README shows and exits 0", async () => {
    const first = /```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(first).toBe(/```js\n([\s\S]*?)```/.exec(section("example"))?.[1]);
    expect(first).toBe(example);
    const { stdout } = await run(process.execPath, [exampleFile], { timeout: 60_000 });
    expect(readme).toContain(`\`\`\`\n${stdout}\`\`\``);
  }, 90_000);

  it("lists every limit with its value and every error code", () => {
    expect(section("limits")).toMatch(/\|\s*`CONNECT_TIMEOUT_MS`\s*\|\s*15000\s*\|/);
    expect(api.CONNECT_TIMEOUT_MS).toBe(15_000);
    for (const code of Object.keys(api.CLIENT_ERROR_CODES)) {
      expect(section("errors")).toMatch(tableRow(code));
    }
  });

  it("lists every runtime export of the root entry in the API table", () => {
    for (const name of Object.keys(api).filter((n) => !/^[A-Z_]+$/.test(n))) {
      expect(readme).toContain(name);
    }
  });
});
