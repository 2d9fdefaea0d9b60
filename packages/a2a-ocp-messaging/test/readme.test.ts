import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import { HUB_ERROR_CODES, HUB_TYPES, MESSAGING_ERROR_CODES } from "../src/index.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(`${dir}README.md`, "utf8");

function section(name: string): string {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return readme.slice(start, end);
}

/** Runs an example the way the README says (it imports the package by name, so from dist). */
function run(example: string): string {
  return execFileSync(process.execPath, [example], { cwd: dir, encoding: "utf8" }).trim();
}

describe("README", () => {
  it("shows the output example/portable.mjs really prints (run against dist)", () => {
    expect(section("portable-output")).toContain(run("example/portable.mjs"));
  });

  it("shows the output example/quickstart.mjs really prints (run against dist)", () => {
    expect(section("quickstart-output")).toContain(run("example/quickstart.mjs"));
  });

  it("lists every limit constant with its value", () => {
    const limits = section("limits");
    const names = Object.keys(api).filter((name) =>
      /^(MAX_|RATE_LIMIT_|DEFAULT_TTL|COMPRESSION_THRESHOLD|REPLAY_WINDOW|NATIVE_KEY|AUDIT_MAX_)/.test(
        name,
      ),
    );
    expect(names.length).toBe(27);
    for (const name of names) {
      const value = String((api as Record<string, unknown>)[name]);
      expect(limits).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
  });

  it("lists every error code", () => {
    const errors = section("errors");
    for (const code of Object.keys(MESSAGING_ERROR_CODES)) {
      expect(errors).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
    }
  });

  it("lists every hub frame type and every hub error code", () => {
    const frames = section("hub-protocol");
    for (const type of Object.values(HUB_TYPES)) {
      expect(frames).toMatch(new RegExp(`\\|\\s*\`${type.replace(/\./g, "\\.")}\`\\s*\\|`));
    }
    const errors = section("hub-errors");
    for (const code of Object.keys(HUB_ERROR_CODES)) {
      expect(errors).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
    }
  });
});
