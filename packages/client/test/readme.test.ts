import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
const example = readFileSync(
  fileURLToPath(new URL("../example/spec-10-5.mjs", import.meta.url)),
  "utf8",
);

function section(name: string): string {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return readme.slice(start, end);
}

describe("README", () => {
  it("quotes the example file's code verbatim (the part up to the handler)", () => {
    const code = /```js\n([\s\S]*?)```/.exec(section("example"))?.[1] ?? "";
    expect(code.length).toBeGreaterThan(100);
    expect(example).toContain(code.trim());
  });

  it("lists every limit with its value and every error code", () => {
    expect(section("limits")).toMatch(/\|\s*`CONNECT_TIMEOUT_MS`\s*\|\s*15000\s*\|/);
    expect(api.CONNECT_TIMEOUT_MS).toBe(15_000);
    for (const code of Object.keys(api.CLIENT_ERROR_CODES)) {
      expect(section("errors")).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
    }
  });

  it("lists every runtime export of the root entry in the API table", () => {
    for (const name of Object.keys(api).filter((n) => !/^[A-Z_]+$/.test(n))) {
      expect(readme).toContain(name);
    }
  });
});
