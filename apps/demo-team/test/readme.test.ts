import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(dir, "README.md"), "utf8");

function section(name: string): string {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return readme.slice(start, end);
}

describe("README", () => {
  it("shows the transcript bin/team-demo.mjs really prints (port and temporary directory aside)", async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = execFile(
        process.execPath,
        ["bin/team-demo.mjs"],
        { cwd: dir, encoding: "utf8", timeout: 90_000 },
        (error, out) => (error === null ? resolve(out) : reject(error)),
      );
      child.stdin?.end();
    });
    const transcript = stdout
      .replace(/ws:\/\/127\.0\.0\.1:\d+\//g, "ws://127.0.0.1:PORT/")
      .replace(/\(SQLite in [^)]+\)/, "(SQLite in TMPDIR)")
      .trim();
    expect(section("transcript")).toContain(transcript);
  }, 120_000);
});
