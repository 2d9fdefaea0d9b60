/**
 * The README's reference, docs/checks.md: every hub and agent check
 * (name, spec sections, advisory flag) and every fixture mode with the one
 * check that catches it, in the order the code has them.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  AGENT_CHECKS,
  AGENT_MISBEHAVE_MODES,
  HUB_CHECKS,
  HUB_MISBEHAVE_MODES,
} from "../src/index.js";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");
/** The check and fixture tables, moved out of the README into the package's docs. */
const CHECKS = readFileSync(new URL("../docs/checks.md", import.meta.url), "utf8");

/** The body rows of the first table after `heading` in docs/checks.md, as trimmed cells. */
function table(heading: string): string[][] {
  const start = CHECKS.indexOf(`\n${heading}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const lines = CHECKS.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(" | ")
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, "");

describe("README", () => {
  it("links docs/checks.md, where every check and fixture mode is listed", () => {
    expect(README).toContain("[docs/checks.md](docs/checks.md)");
  });

  for (const [heading, checks] of [
    ["## Hub checks", HUB_CHECKS],
    ["## Agent checks", AGENT_CHECKS],
  ] as const) {
    it(`docs/checks.md ${heading}: every check, its sections and whether it decides, in order`, () => {
      const rows = table(heading);
      expect(rows.map(([name, sections, decides]) => [unquote(name!), sections, decides])).toEqual(
        checks.map((c) => [
          c.spec.name,
          c.spec.sections.join(", ").replace("RFC 7493 §2.3", "RFC 7493"),
          c.spec.advisory ? "advisory" : "yes",
        ]),
      );
    });
  }

  for (const [heading, modes] of [
    ["## The fixture hub", HUB_MISBEHAVE_MODES],
    ["## The fixture agent", AGENT_MISBEHAVE_MODES],
  ] as const) {
    it(`docs/checks.md ${heading}: every misbehave mode and the check that catches it`, () => {
      expect(table(heading).map((row) => row.map(unquote))).toEqual(Object.entries(modes));
    });
  }
});
