import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { A2A_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(dir, "README.md"), "utf8");
const section = (name: string) => {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return readme.slice(start, end);
};

describe("README (A2A compatibility)", () => {
  it("lists every A2A limit with its value", () => {
    const table = section("a2a-limits");
    for (const [name, value] of Object.entries(limits)) {
      expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
  });

  it("lists every A2A error code", () => {
    const table = section("a2a-errors");
    for (const code of Object.keys(A2A_ERROR_CODES))
      expect(table).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
  });

  it("shows what example/a2a-fallback.mjs really prints (run against dist)", () => {
    const output = execFileSync(process.execPath, ["example/a2a-fallback.mjs"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(section("a2a-example-output")).toContain(output.trim());
  });
});
