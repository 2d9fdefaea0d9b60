import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as browserEntry from "../src/browser.js";
import { MESSAGING_ERROR_CODES } from "../src/index.js";
import { HUB_ERROR_CODES, HUB_TYPES } from "../src/internal.js";
import * as limits from "../src/limits.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(`${dir}README.md`, "utf8");
/** The hub's wire protocol, moved out of the README into the package's docs. */
const hubProtocol = readFileSync(`${dir}docs/hub-protocol.md`, "utf8");
/** The limits and error-code tables, moved out of the README into the package's docs. */
const reference = readFileSync(`${dir}docs/reference.md`, "utf8");

function section(name: string, text = readme): string {
  const start = text.indexOf(`<!-- ${name} -->`);
  const end = text.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
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

  it("docs/reference.md lists every constant of src/limits.ts with its value", () => {
    const table = section("limits", reference);
    const names = Object.keys(limits);
    expect(names.length).toBeGreaterThan(25);
    for (const name of names) {
      const value = String((limits as Record<string, unknown>)[name]);
      expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
  });

  it("docs/reference.md lists every error code", () => {
    const errors = section("errors", reference);
    for (const code of Object.keys(MESSAGING_ERROR_CODES)) {
      expect(errors).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
    }
  });

  it("docs/reference.md names every runtime export of the browser entry, and the README links it", () => {
    const start = reference.indexOf("## The browser entry");
    expect(start).toBeGreaterThan(-1);
    const text = reference.slice(start);
    for (const name of Object.keys(browserEntry)) expect(text).toContain(`\`${name}\``);
    expect(readme).toContain("(docs/reference.md#the-browser-entry)");
  });

  it("links the docs the limits and error codes moved to", () => {
    expect(readme).toContain("[docs/reference.md](docs/reference.md)");
  });

  it("docs/hub-protocol.md lists every hub frame type and every hub error code", () => {
    const frames = section("hub-protocol", hubProtocol);
    for (const type of Object.values(HUB_TYPES)) {
      expect(frames).toMatch(new RegExp(`\\|\\s*\`${type.replace(/\./g, "\\.")}\`\\s*\\|`));
    }
    const errors = section("hub-errors", hubProtocol);
    for (const code of Object.keys(HUB_ERROR_CODES)) {
      expect(errors).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
    }
  });
});
