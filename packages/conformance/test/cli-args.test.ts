import { describe, expect, it } from "vitest";
import { parseArgs } from "../src/internal.js";

describe("parseArgs (ocp-inspect's command line)", () => {
  it("stdio takes the provider command after --, options before it", () => {
    expect(
      parseArgs(["stdio", "--query", "retry", "--json", "--", "node", "p.js", "--json"]),
    ).toEqual({
      kind: "provider",
      target: { command: "node", args: ["p.js", "--json"] },
      json: true,
      strict: false,
      goal: "retry",
    });
  });

  it("http takes one URL; --strict, --timeout and --query=VALUE are understood", () => {
    expect(
      parseArgs([
        "http",
        "--strict",
        "--timeout",
        "2500",
        "--query=q",
        "http://127.0.0.1:8080/ocp",
      ]),
    ).toEqual({
      kind: "provider",
      target: { url: "http://127.0.0.1:8080/ocp" },
      json: false,
      strict: true,
      goal: "q",
      timeoutMs: 2500,
    });
  });

  it("--max-tokens sets the probe budget; --version is asked for two ways", () => {
    expect(parseArgs(["http", "--max-tokens", "600", "http://a.test/"])).toMatchObject({
      kind: "provider",
      maxTokens: 600,
    });
    expect(parseArgs(["--version"])).toEqual({ kind: "version" });
    expect(parseArgs(["-v"])).toEqual({ kind: "version" });
  });

  it("host takes only --json; help is asked for many ways", () => {
    expect(parseArgs(["host", "--json"])).toEqual({ kind: "host", json: true });
    for (const argv of [["--help"], ["-h"], ["help"], ["stdio", "--help"], ["http", "-h"]]) {
      expect(parseArgs(argv)).toEqual({ kind: "help" });
    }
  });

  it.each([
    [[], "missing command"],
    [["probe"], 'unknown command "probe"'],
    [["stdio", "node", "x.js"], "put the provider command after --"],
    [["stdio", "--json"], "stdio needs the provider command after --"],
    [["stdio", "--"], "stdio needs the provider command after --"],
    [["http"], "http needs exactly one URL"],
    [["http", "ftp://example.test/"], "not an http(s) URL"],
    [["http", "not a url"], "not a URL"],
    [["http", "http://a.test/", "http://b.test/"], "http needs exactly one URL"],
    [["http", "--nope", "http://a.test/"], "unknown option --nope for http"],
    [["stdio", "--timeout", "soon", "--", "node"], "--timeout needs a positive number"],
    [["stdio", "--timeout", "0", "--", "node"], "--timeout needs a positive number"],
    [["stdio", "--query", "", "--", "node"], "--query needs a non-empty goal"],
    [["stdio", "--max-tokens", "0", "--", "node"], "--max-tokens needs a positive whole number"],
    [["stdio", "--max-tokens", "1e3", "--", "node"], "--max-tokens needs a positive whole number"],
    [["stdio", "--max-tokens", "4294967296", "--", "node"], "at most 4294967295"],
    [["http", "--max-tokens"], "--max-tokens needs a positive whole number"],
    [["host", "--strict"], "unknown option --strict for host"],
    [["host", "extra"], "host takes no arguments"],
  ])("%j is bad usage: %s", (argv, message) => {
    const parsed = parseArgs(argv);
    expect(parsed.kind).toBe("usage-error");
    expect(parsed.kind === "usage-error" ? parsed.message : "").toContain(message);
  });
});
