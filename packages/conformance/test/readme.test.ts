/**
 * The README and its docs against the code: the provider and host check tables list the
 * suite's checks in report order with their requirement ids and whether they
 * decide, the fixture tables list every misbehave mode with the check it
 * trips, and the limits table gives each constant's value.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type CheckSpec, limits } from "../src/index.js";
import {
  CGP_MISBEHAVE_MODES,
  CHECK_SPECS,
  HOST_CHECK_SPECS,
  HTTP_MISBEHAVE_MODES,
  MISBEHAVE_MODES,
} from "../src/internal.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
/** The tables moved out of the README into the package's docs. */
const doc = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), "utf8");
const checksDoc = doc("checks.md");
const fixtureDoc = doc("fixture-provider.md");
const referenceDoc = doc("reference.md");

/** The text between `## heading` and the next `## ` of `text`. */
function chapter(heading: string, text: string): string {
  const start = text.indexOf(`\n## ${heading}`);
  expect(start, `## ${heading}`).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The body rows of every table in `text` whose first cell is a backquoted name, as trimmed cells. */
function rows(text: string): string[][] {
  return [...text.matchAll(/^\| `([^`]+)` .*$/gm)].map(([line]) =>
    line!
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`|`$/g, "")),
  );
}

/** `H1, H2` and `F1–F3` as the ids they name. */
function ids(cell: string): string[] {
  return cell.split(", ").flatMap((id) => {
    const range = /^([A-Z])(\d+)–\1(\d+)$/.exec(id);
    if (!range) return [id];
    const out: string[] = [];
    for (let n = Number(range[2]); n <= Number(range[3]); n++) out.push(`${range[1]}${n}`);
    return out;
  });
}

const spec = (check: CheckSpec) => [
  check.name,
  check.requirements.join(", "),
  check.advisory ? "advisory" : "deciding",
];

describe("README", () => {
  it("links the docs its check, fixture and limits tables moved to", () => {
    for (const name of ["checks.md", "fixture-provider.md", "reference.md"])
      expect(readme).toContain(`[docs/${name}](docs/${name})`);
  });

  it("docs/checks.md, Provider checks: every check in report order, its ids and whether it decides", () => {
    const table = rows(chapter("Provider checks", checksDoc)).map(([name, cell, status]) => [
      name,
      ids(cell!).join(", "),
      status,
    ]);
    expect(table).toEqual(CHECK_SPECS.map(spec));
  });

  it("docs/checks.md, Host checks: every host check in report order with its ids", () => {
    const table = rows(chapter("Host checks", checksDoc)).map(([name, cell]) => [
      name,
      ids(cell!).join(", "),
    ]);
    expect(table).toEqual(HOST_CHECK_SPECS.map((check) => spec(check).slice(0, 2)));
  });

  it("docs/fixture-provider.md: every misbehave mode with the check it trips", () => {
    const table = rows(chapter("The fixture provider", fixtureDoc));
    const ocp1 = Object.entries({ ...MISBEHAVE_MODES, ...HTTP_MISBEHAVE_MODES });
    expect(table.slice(0, ocp1.length).map(([mode, check]) => [mode, check])).toEqual(ocp1);
    // The contextgraph/1 table: upstream's 17, with the check under each family ("—": answers ocp/1 honestly).
    expect(
      table
        .slice(ocp1.length)
        .map(([mode, cgp, ocp]) => [mode, cgp, ocp!.startsWith("—") ? undefined : ocp]),
    ).toEqual(
      Object.entries(CGP_MISBEHAVE_MODES).map(([mode, checks]) => [
        mode,
        checks.contextgraph,
        "ocp" in checks ? checks.ocp : undefined,
      ]),
    );
  });

  it("docs/reference.md, Limits: every constant it lists has that value (MiB = 1024 × 1024 bytes)", () => {
    const table = rows(chapter("Limits", referenceDoc));
    expect(table.length).toBeGreaterThan(8);
    for (const [name, shown] of table) {
      const actual = (limits as Record<string, unknown>)[name!];
      expect(actual, `${name} is a limit of src/limits.ts`).toBeTypeOf("number");
      const mib = /^(\d+) MiB$/.exec(shown!);
      expect(mib ? Number(mib[1]) * 1024 * 1024 : Number(shown), name).toBe(actual);
    }
  });
});
