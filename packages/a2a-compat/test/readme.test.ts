import { execFileSync } from "node:child_process";
import { packageDocs, tableRow } from "@ocp/testkit/readme";
import { describe, expect, it } from "vitest";
import { A2A_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";

const { dir, readme, read, section } = packageDocs(new URL("..", import.meta.url));
/** The limits and error-code tables, moved out of the README into the package's docs. */
const reference = read("docs/reference.md");

describe("README (A2A compatibility)", () => {
  it("links the docs its security model, limits and error codes moved to", () => {
    expect(readme).toContain("[docs/security.md](docs/security.md)");
    expect(readme).toContain("[docs/reference.md](docs/reference.md)");
  });

  it("docs/reference.md lists every A2A limit with its value", () => {
    const table = section("a2a-limits", reference);
    for (const [name, value] of Object.entries(limits)) {
      expect(table).toMatch(tableRow(name, value));
    }
  });

  it("docs/reference.md lists every A2A error code", () => {
    const table = section("a2a-errors", reference);
    for (const code of Object.keys(A2A_ERROR_CODES)) expect(table).toMatch(tableRow(code));
  });

  it("shows what example/a2a-fallback.mjs really prints (run against dist)", () => {
    const output = execFileSync(process.execPath, ["example/a2a-fallback.mjs"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(section("a2a-example-output")).toContain(output.trim());
  }, 90_000); // above the example's own 60 s bound
});
