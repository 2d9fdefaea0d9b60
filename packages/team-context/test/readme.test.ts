import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TEAM_CONTEXT_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

function section(name: string): string {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start).toBeGreaterThanOrEqual(0);
  return readme.slice(start, end);
}

describe("README (team-context)", () => {
  it("lists every limit with its value", () => {
    const table = section("limits");
    for (const [name, value] of Object.entries(limits))
      expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
  });

  it("lists every error code", () => {
    const table = section("errors");
    for (const code of Object.keys(TEAM_CONTEXT_ERROR_CODES))
      expect(table).toContain(`\`${code}\``);
  });

  it("documents every CLI option of --help", async () => {
    const help = readFileSync(new URL("../src/cli.ts", import.meta.url), "utf8");
    for (const [, option] of help.matchAll(/^ {2}(--[a-z-]+)/gm)) expect(readme).toContain(option);
  });
});
