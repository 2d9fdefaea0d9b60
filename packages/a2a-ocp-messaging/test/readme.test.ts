import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as hubApi from "../src/hub/index.js";
import * as api from "../src/index.js";
import { MESSAGING_ERROR_CODES } from "../src/index.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(`${dir}README.md`, "utf8");

function section(name: string): string {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start).toBeGreaterThan(-1);
  return readme.slice(start, end);
}

describe("README", () => {
  it("shows the output the quickstart example really prints (run against dist)", () => {
    const output = execFileSync(process.execPath, ["example/quickstart.mjs"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(section("quickstart-output")).toContain(output.trim());
  });

  it("lists every limit constant with its value", () => {
    const limits = section("limits");
    const names = Object.keys(api).filter((name) =>
      /^(MAX_|RATE_LIMIT_|DEFAULT_TTL|COMPRESSION_THRESHOLD|REPLAY_WINDOW|NATIVE_KEY)/.test(name),
    );
    expect(names.length).toBe(19);
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

  it("lists every hub limit constant with its value and every hub frame type", () => {
    const limits = section("hub-limits");
    const names = Object.keys(hubApi).filter((name) => /^(HUB_|CLIENT_)[A-Z_]+$/.test(name));
    const constants = names.filter(
      (name) => typeof (hubApi as Record<string, unknown>)[name] === "number",
    );
    expect(constants.length).toBe(13);
    for (const name of constants) {
      const value = String((hubApi as Record<string, unknown>)[name]);
      expect(limits).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
    const frames = section("hub-protocol");
    for (const type of Object.values(hubApi.HUB_TYPES)) expect(frames).toContain(`\`${type}\``);
  });
});
