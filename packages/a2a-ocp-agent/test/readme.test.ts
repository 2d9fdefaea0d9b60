import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_COLLECTIVE_TIMEOUT_MS } from "../src/agent-collective.js";
import { AGENT_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(dir, "README.md"), "utf8");
/** The reference tables and the consensus rules, moved out of the README into the package's docs. */
const reference = readFileSync(join(dir, "docs", "reference.md"), "utf8");
const consensus = readFileSync(join(dir, "docs", "consensus.md"), "utf8");
/** The text between `<!-- name -->` and `<!-- /name -->` of `text` (the README unless named). */
const section = (name: string, text = readme) => {
  const start = text.indexOf(`<!-- ${name} -->`);
  const end = text.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
};

describe("README (agent runtime)", () => {
  it("shows what example/team.mjs really prints (run against dist)", () => {
    const output = execFileSync(process.execPath, ["example/team.mjs"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(section("example-output")).toContain(output.trim());
  });

  it("opens with example/team.mjs verbatim (the example the output above is of)", () => {
    const first = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(first).toBe(readFileSync(join(dir, "example", "team.mjs"), "utf8"));
  });

  it("links the docs the reference tables and consensus rules moved to", () => {
    expect(readme).toContain("[docs/reference.md](docs/reference.md)");
    expect(readme).toContain("[docs/consensus.md](docs/consensus.md)");
  });

  it("docs/reference.md lists every agent limit with its value", () => {
    const table = section("agent-limits", reference);
    for (const [name, value] of Object.entries({ ...limits, DEFAULT_COLLECTIVE_TIMEOUT_MS })) {
      expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
  });

  it("docs/reference.md lists every agent error code", () => {
    const table = section("agent-errors", reference);
    for (const code of Object.keys(AGENT_ERROR_CODES))
      expect(table).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
  });

  it("docs/reference.md documents every option of OCPAgentOptions", () => {
    const source = readFileSync(join(dir, "src", "agent-types.ts"), "utf8");
    const start = source.indexOf("export interface OCPAgentOptions");
    const body = source.slice(start, source.indexOf("\n}", start));
    const names = [...body.matchAll(/^ {2}readonly (\w+)\??:/gm)].map((match) => match[1]!);
    expect(names.length).toBeGreaterThan(5);
    const table = section("options", reference);
    for (const name of names) expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|`));
  });

  it("docs/consensus.md states the consensus rules: second vote, tie, abstentions, threshold comparison", () => {
    const table = section("consensus-rules", consensus);
    for (const needle of [
      "second vote",
      "tie",
      "abstentions",
      "≥",
      "duplicate_vote",
      "proposal_closed",
      "vote_rejected",
    ]) {
      expect(table).toContain(needle);
    }
  });
});
