import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

describe("ocp-hub CLI", () => {
  it("--help describes the options, loopback and the SQLite default, and exits 0", () => {
    const help = execFileSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    expect(help).toContain("Usage: ocp-hub");
    expect(help).toContain("127.0.0.1");
    expect(help).toContain("--db FILE");
    expect(help).toContain("ocp-hub.sqlite");
  });

  it("refuses an invalid option value with exit code 2", () => {
    expect(() =>
      execFileSync(process.execPath, [CLI, "--port", "-5"], { encoding: "utf8", stdio: "pipe" }),
    ).toThrow(expect.objectContaining({ status: 2 }));
  });
});
