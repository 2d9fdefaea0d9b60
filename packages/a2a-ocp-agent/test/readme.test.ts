import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AGENT_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";

const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
const section = (name: string) => {
  const start = readme.indexOf(`<!-- ${name} -->`);
  expect(start).toBeGreaterThan(-1);
  return readme.slice(start, readme.indexOf(`<!-- /${name} -->`));
};

describe("README (agent runtime)", () => {
  it("lists every agent limit with its value", () => {
    const table = section("agent-limits");
    for (const [name, value] of Object.entries(limits)) {
      expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
  });

  it("lists every agent error code", () => {
    const table = section("agent-errors");
    for (const code of Object.keys(AGENT_ERROR_CODES))
      expect(table).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
  });

  it("states the consensus rules: second vote, tie, abstentions, threshold comparison", () => {
    const table = section("consensus-rules");
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
