import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../src/index.js";
import { fixtureCommand, parseArgs } from "../src/internal.js";
import { fixtureScript } from "./cgp-helpers.js";
import { inspect as runInspect } from "./inspect.js";

/** Runs the built `ocp-inspect` as a real child; killed if it outlives 120 s. */
const inspect = (args: readonly string[]) => runInspect(args, { timeoutMs: 120_000 });

describe("ocp-inspect --family", () => {
  it("parses --family for providers and host --family contextgraph with its host command", () => {
    expect(parseArgs(["stdio", "--family", "contextgraph", "--", "node", "p.js"])).toMatchObject({
      kind: "provider",
      family: "contextgraph",
    });
    expect(parseArgs(["http", "--family=auto", "http://127.0.0.1:1/"])).toMatchObject({
      family: "auto",
    });
    expect(parseArgs(["host", "--family", "contextgraph", "--", "my-host", "--json"])).toEqual({
      kind: "cgp-host",
      json: false,
      command: "my-host",
      args: ["--json"],
      grantFlag: "--grant",
    });
    expect(parseArgs(["stdio", "--family", "cgp", "--", "x"])).toEqual({
      kind: "usage-error",
      message: "--family needs ocp, contextgraph or auto",
    });
    expect(parseArgs(["host", "--family", "contextgraph"])).toEqual({
      kind: "usage-error",
      message: "host --family contextgraph needs the host command after --",
    });
  });

  it("stdio --family contextgraph judges the fixture by CGP's checks and exits 0", async () => {
    const fixture = fixtureCommand();
    const { code, stdout } = await inspect([
      "stdio",
      "--family",
      "contextgraph",
      "--",
      fixture.command,
      ...fixture.args,
    ]);
    expect(stdout).toMatch(/^── CGP \(contextgraph\/1\) provider: stdio: /);
    expect(stdout).toContain("✓ verify-honesty [V1, V2, V3, V4]");
    expect(stdout).toMatch(/CONFORMANT — 11 passed, 0 skipped/);
    expect(code).toBe(0);
  });

  it("stdio --family auto --json on a lying CGP provider names the family and exits 1", async () => {
    const fixture = fixtureCommand("--misbehave", "scope-lie");
    const { code, stdout } = await inspect([
      "stdio",
      "--family",
      "auto",
      "--json",
      "--",
      fixture.command,
      ...fixture.args,
    ]);
    const report = JSON.parse(stdout) as ConformanceReport & { familyDecision: string };
    expect(report.family).toBe("contextgraph/1");
    expect(
      report.checks.filter((check) => check.status === "fail").map((check) => check.name),
    ).toEqual(["consent-scope"]);
    expect(code).toBe(1);
  });

  it("host --family contextgraph runs the host scenarios against a host command and exits 1 on a bad host", async () => {
    const host = fixtureScript("naive-cgp-host.mjs");
    const { code, stdout } = await inspect([
      "host",
      "--family",
      "contextgraph",
      "--",
      host.command,
      ...host.args,
    ]);
    expect(stdout).toMatch(/^── CGP \(contextgraph\/1\) host: host: /);
    expect(stdout).toContain("✗ host-frame-limit [B4]");
    expect(code).toBe(1);
  });
});
