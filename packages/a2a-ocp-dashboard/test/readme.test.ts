/**
 * The README against the code: the options table names every field of
 * `DashboardOptions` with the default `startDashboard` applies, and the
 * limits table gives every default of `DEFAULT_LIMITS` (and `AWAY_AFTER_MS`).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AWAY_AFTER_MS, DEFAULT_LIMITS, SYNTHESIS_GRACE_MS } from "../src/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const server = readFileSync(new URL("../src/server.ts", import.meta.url), "utf8");

/** `| `name` | value | …` rows between `<!-- name -->` and `<!-- /name -->`. */
function table(name: string): Map<string, string> {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  const rows = readme.slice(start, end).matchAll(/^\|\s*`(\w+)`\s*\|\s*([^|]+?)\s*\|/gm);
  return new Map([...rows].map(([, key, value]) => [key!, value!.replace(/`/g, "")]));
}

describe("README", () => {
  it("names every option of DashboardOptions, with the default startDashboard applies", () => {
    const start = server.indexOf("export interface DashboardOptions");
    const body = server.slice(start, server.indexOf("\n}", start));
    const fields = [...body.matchAll(/^ {2}(\w+)\??:/gm)].map(([, field]) => field!);
    expect(fields.length).toBeGreaterThan(7);
    const options = table("options");
    expect([...options.keys()].sort()).toEqual([...fields].sort());
    const defaults = [...server.matchAll(/options\.(\w+) \?\? ("?[\w.]+"?)/g)];
    expect(defaults.map(([, field]) => field).sort()).toEqual(
      ["defaultVisibility", "flushIntervalMs", "host", "port", "sampleIntervalMs"].sort(),
    );
    for (const [, field, fallback] of defaults) {
      expect(options.get(field!), `default of ${field}`).toBe(fallback!.replace(/"/g, ""));
    }
  });

  it("gives every default of DEFAULT_LIMITS, AWAY_AFTER_MS and SYNTHESIS_GRACE_MS", () => {
    const limits = table("limits");
    expect([...limits.keys()].sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort());
    for (const [key, value] of Object.entries(DEFAULT_LIMITS)) {
      expect(limits.get(key), key).toBe(String(value));
    }
    expect(readme).toContain(`\`AWAY_AFTER_MS\` (${AWAY_AFTER_MS} ms`);
    expect(readme).toContain(`\`SYNTHESIS_GRACE_MS\` (${SYNTHESIS_GRACE_MS} ms`);
  });
});
