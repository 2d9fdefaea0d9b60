/**
 * The README against the code: its example prints what its comments say
 * (run against dist, importing the package by name), every name of its
 * "What is in it" table is exported by the entry point it names, the errors
 * table lists the codes the codec raises, and the limits table gives each
 * constant's value.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAX_CORRELATION_ID_LENGTH, U32_MAX } from "../src/internal.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const source = (path: string) => readFileSync(new URL(`../src/${path}`, import.meta.url), "utf8");

/** The text between `## heading` and the next `## `. */
function chapter(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `## ${heading}`).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The first cells of a table's body rows. */
function firstCells(text: string): string[] {
  return [...text.matchAll(/^\| (.+?) +\|/gm)]
    .map(([, cell]) => cell!)
    .filter((cell) => !/^-+$/.test(cell) && !/^(export|code|constant|id)$/.test(cell));
}

describe("README", () => {
  it("Example: prints exactly what its comments show (against dist)", () => {
    const code = /```ts\n([\s\S]*?)```/.exec(chapter("Example"))?.[1] ?? "";
    const shown = [...code.matchAll(/^\/\/ (.*)$/gm)].map(([, line]) => line);
    expect(shown.length).toBeGreaterThan(3);
    const printed = execFileSync(process.execPath, ["--input-type=module", "-e", code], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(printed.split("\n").filter((line) => line !== "")).toEqual(shown);
  });

  it("What is in it: every name is exported by the entry point its row names", () => {
    const entries: Record<string, string> = {
      "": source("index.ts"),
      "@ocp/types/kit": source("kit.ts"),
      "@ocp/types/tokens": source("tokens.ts"),
      "@ocp/types/fast": source("fast/index.ts"),
    };
    const rows = firstCells(chapter("What is in it"));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const entry = /^`(@ocp\/types\/\w+)`:/.exec(row)?.[1] ?? "";
      const exports = entries[entry];
      expect(exports, `entry ${entry}`).toBeDefined();
      const names = [...row.replace(/^`@ocp\/types\/\w+`:/, "").matchAll(/`(\w+)(?:\(\))?`/g)];
      expect(names.length, row).toBeGreaterThan(0);
      for (const [, name] of names) {
        expect(exports, `${name} exported by ${entry || "@ocp/types"}`).toMatch(
          new RegExp(`export[^;]*\\b${name}\\b`),
        );
      }
    }
  });

  it("Errors: lists exactly the codes the codec and the provider kit raise", () => {
    const raised = ["codec.ts", "kit-cgp-provider.ts"].flatMap((file) =>
      [...source(file).matchAll(/(?:typesError|kitError)\(\s*"(\w+)"/g)].map(([, code]) => code),
    );
    const listed = firstCells(chapter("Errors")).map((cell) => cell.replace(/`/g, ""));
    expect(listed.length).toBe(5);
    expect([...new Set(listed)].sort()).toEqual([...new Set(raised)].sort());
  });

  it("Limits: gives each constant's value", () => {
    const limits = chapter("Limits");
    const value = (name: string) =>
      new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*([^|]+?)\\s*\\|`)
        .exec(limits)?.[1]
        ?.replace(/ /g, "");
    expect(value("U32_MAX")).toBe(String(U32_MAX));
    expect(value("MAX_CORRELATION_ID_LENGTH")).toBe(String(MAX_CORRELATION_ID_LENGTH));
  });
});
