import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MESSAGING_ERROR_CODES } from "@ocp/a2a-ocp-messaging";
import { HUB_ERROR_CODES } from "@ocp/a2a-ocp-messaging/internal";
import { describe, expect, it } from "vitest";
import { FEDERATION_ERROR_CODES } from "../src/federation/codes.js";
import * as federationLimits from "../src/federation/limits.js";
import * as limits from "../src/limits.js";
import * as natsLimits from "../src/nats/limits.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(dir, "README.md"), "utf8");
/** The CLI's help and the reference tables, moved out of the README into the package's docs. */
const cliDoc = readFileSync(join(dir, "docs", "cli.md"), "utf8");
const reference = readFileSync(join(dir, "docs", "reference.md"), "utf8");
const src = (name: string) => readFileSync(join(dir, "src", name), "utf8");

/** The text between `<!-- name -->` and `<!-- /name -->` of `text` (the README unless named). */
function section(name: string, text = readme): string {
  const start = text.indexOf(`<!-- ${name} -->`);
  const end = text.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
}

const row = (name: string) => new RegExp(`\\|\\s*\`${name}\`\\s*\\|`);
const valueRow = (name: string, value: unknown) =>
  new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${String(value)}\\s*\\|`);

describe("README", () => {
  it("shows what example/hub.mjs really prints (run against dist)", () => {
    const output = execFileSync(process.execPath, ["example/hub.mjs"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(section("example-output")).toContain(output.trim());
  });

  it("docs/cli.md shows exactly what `ocp-hub --help` prints (dist/cli.js)", () => {
    const help = execFileSync(process.execPath, ["dist/cli.js", "--help"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(section("cli-help", cliDoc)).toContain(help.trim());
  });

  it("docs/cli.md shows exactly what `ocp-hub audit --help` prints (dist/cli.js)", () => {
    const help = execFileSync(process.execPath, ["dist/cli.js", "audit", "--help"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(section("cli-audit-help", cliDoc)).toContain(help.trim());
  });

  it("docs/reference.md lists every hub limit and every NATS limit with its value", () => {
    const hubTable = section("limits", reference);
    for (const [name, value] of Object.entries(limits)) {
      expect(hubTable).toMatch(valueRow(name, value));
    }
    const natsTable = section("nats-limits", reference);
    for (const [name, value] of Object.entries(natsLimits)) {
      expect(natsTable).toMatch(valueRow(name, value));
    }
  });

  it("docs/reference.md lists every federation limit with its value and every federation code", () => {
    const table = section("federation-limits", reference);
    for (const [name, value] of Object.entries(federationLimits)) {
      expect(table).toMatch(valueRow(name, value));
    }
    const errors = section("errors", reference);
    for (const code of Object.keys(FEDERATION_ERROR_CODES)) expect(errors).toContain(`\`${code}\``);
    expect(readme).toContain("[docs/federation.md](docs/federation.md)");
  });

  it("docs/reference.md documents every option of OCPHubOptions", () => {
    const options = src("options.ts");
    const start = options.indexOf("export interface OCPHubOptions");
    const body = options.slice(start, options.indexOf("\n}", start));
    const names = [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1]!);
    expect(names.length).toBeGreaterThan(15);
    const table = section("options", reference);
    for (const name of names) expect(table).toMatch(row(name));
  });

  it("docs/reference.md lists every code the hub can send in ocp.hub.reject", () => {
    const table = section("errors", reference);
    const known = new Set([...Object.keys(MESSAGING_ERROR_CODES), ...Object.keys(HUB_ERROR_CODES)]);
    const codes = new Set<string>();
    // The stages the hub runs (MessageStages and its signature step).
    for (const [code, meaning] of Object.entries(MESSAGING_ERROR_CODES)) {
      if (/^(inbound (size|JSON|schema|signature|freshness|replay)|rate limit)/.test(meaning)) {
        codes.add(code);
      }
    }
    for (const [code, meaning] of Object.entries(HUB_ERROR_CODES)) {
      if (meaning.startsWith("hub:")) codes.add(code);
    }
    // Every code literal in the hub's sources.
    for (const name of [
      "hub.ts",
      "authorship.ts",
      "check.ts",
      "acks.ts",
      "control.ts",
      "subscription-messages.ts",
    ]) {
      for (const match of src(name).matchAll(/"([a-z]+(?:_[a-z]+)+)"/g)) {
        if (known.has(match[1]!)) codes.add(match[1]!);
      }
    }
    expect(codes.size).toBeGreaterThan(15);
    for (const code of codes) expect(table).toContain(`\`${code}\``);
  });

  it("shows the cluster command lines with the flags the CLI takes", () => {
    expect(readme).toContain("nats-server -a 127.0.0.1 -p 4222 -js -sd");
    expect(readme).toContain("[docs/cli.md](docs/cli.md)");
    expect(readme).toContain("[docs/reference.md](docs/reference.md)");
    expect(readme).toContain("ocp-hub --port 8701 --nats nats://127.0.0.1:4222 --workspace acme");
    const cli = src("cli.ts");
    for (const flag of ["--nats URL", "--workspace NAME", "--nats-replicas N"]) {
      expect(cli).toContain(flag);
    }
  });
});
