import { execFileSync } from "node:child_process";
import { packageDocs, tableRow } from "@ocp/testkit/readme";
import { describe, expect, it } from "vitest";
import { DEFAULT_COLLECTIVE_TIMEOUT_MS } from "../src/agent-collective.js";
import { AGENT_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";

const { dir, readme, read, section } = packageDocs(new URL("..", import.meta.url));
/** The reference tables and the consensus rules, moved out of the README into the package's docs. */
const reference = read("docs/reference.md");
const consensus = read("docs/consensus.md");

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
    expect(first).toBe(read("example/team.mjs"));
  });

  it("links the docs the reference tables and consensus rules moved to", () => {
    expect(readme).toContain("[docs/reference.md](docs/reference.md)");
    expect(readme).toContain("[docs/consensus.md](docs/consensus.md)");
  });

  it("docs/reference.md lists every agent limit with its value", () => {
    const table = section("agent-limits", reference);
    for (const [name, value] of Object.entries({ ...limits, DEFAULT_COLLECTIVE_TIMEOUT_MS })) {
      expect(table).toMatch(tableRow(name, value));
    }
  });

  it("docs/reference.md lists every agent error code", () => {
    const table = section("agent-errors", reference);
    for (const code of Object.keys(AGENT_ERROR_CODES)) expect(table).toMatch(tableRow(code));
  });

  it("docs/reference.md documents every option of OCPAgentOptions", () => {
    const source = read("src/agent-types.ts");
    const start = source.indexOf("export interface OCPAgentOptions");
    const body = source.slice(start, source.indexOf("\n}", start));
    const names = [...body.matchAll(/^ {2}readonly (\w+)\??:/gm)].map((match) => match[1]!);
    expect(names.length).toBeGreaterThan(5);
    const table = section("options", reference);
    for (const name of names) expect(table).toMatch(tableRow(name));
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
