import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { BRIDGE_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";
import { root, run, SLOW } from "./helpers.js";

const readme = () => readFile(`${root}/README.md`, "utf8");

describe("README", () => {
  it("lists every limit of src/limits.ts with its value", async () => {
    const text = await readme();
    const table = text.slice(text.indexOf("<!-- limits -->"), text.indexOf("<!-- /limits -->"));
    const constants = Object.entries(limits).filter(([, value]) => typeof value === "number");
    expect(constants.length).toBeGreaterThan(0);
    for (const [name, value] of constants) expect(table).toContain(`| \`${name}\` | ${value} |`);
    expect(table.split("\n").filter((line) => line.startsWith("| `"))).toHaveLength(
      constants.length,
    );
  });

  it("lists every error code with its meaning", async () => {
    const text = await readme();
    const table = text.slice(text.indexOf("<!-- errors -->"), text.indexOf("<!-- /errors -->"));
    for (const [code, meaning] of Object.entries(BRIDGE_ERROR_CODES)) {
      expect(table).toContain(`| \`${code}\` | ${meaning} |`);
    }
  });

  it(
    "shows the --help of both commands verbatim",
    async () => {
      const text = await readme();
      for (const bin of ["from-mcp-cli.js", "to-mcp-cli.js"]) {
        const { stdout } = await run(process.execPath, [`${root}/dist/${bin}`, "--help"], {
          timeout: SLOW,
        });
        expect(text).toContain(`\`\`\`text\n${stdout}\`\`\``);
      }
    },
    SLOW,
  );
});
