/**
 * The README's reference (docs/reference.md) against the code: the limits table gives every default of
 * `DEFAULT_LIMITS` (and `NONCE_BYTES`) with its option name and value, the
 * close-code table lists `CLOSE_CODES`, and the errors table lists every code
 * of `ERROR_CLOSE_CODES` with the close code it ends a connection with.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLOSE_CODES, DEFAULT_LIMITS } from "../src/index.js";
import { ERROR_CLOSE_CODES, NONCE_BYTES } from "../src/internal.js";
import * as limits from "../src/limits.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
/** The limits, close-code and error tables, moved out of the README into the package's docs. */
const reference = readFileSync(new URL("../docs/reference.md", import.meta.url), "utf8");

/** The text between `## heading` and the next `## ` of docs/reference.md. */
function chapter(heading: string): string {
  const start = reference.indexOf(`\n## ${heading}\n`);
  expect(start, `## ${heading}`).toBeGreaterThan(-1);
  const end = reference.indexOf("\n## ", start + 1);
  return reference.slice(start, end === -1 ? undefined : end);
}

/** Body rows of the tables in `text`, cells trimmed, backquotes dropped. */
function rows(text: string): string[][] {
  return [...text.matchAll(/^\|(.*)\|$/gm)]
    .map(([, line]) => line!.split("|").map((cell) => cell.trim().replace(/^`|`$/g, "")))
    .filter((cells) => !/^-+$/.test(cells[0]!) && !["constant", "code"].includes(cells[0]!));
}

const UNITS: Record<string, number> = { MiB: 1024 * 1024, KiB: 1024, s: 1000, ms: 1 };

/** `1 MiB`, `256 KiB`, `15 s`, `500 ms`, `10 000` as a number. */
function amount(text: string): number {
  const [, digits, unit] = /^([\d ]+?)(?: (MiB|KiB|s|ms))?$/.exec(text) ?? [];
  expect(digits, `a value: ${text}`).toBeDefined();
  return Number(digits!.replace(/ /g, "")) * (unit ? UNITS[unit]! : 1);
}

/** `MAX_PAYLOAD_BYTES` → `maxPayloadBytes`. */
const camel = (name: string) =>
  name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

describe("README", () => {
  it("links docs/reference.md, where its limits, close codes and errors are listed", () => {
    expect(readme).toContain("[docs/reference.md](docs/reference.md)");
  });

  it("Limits: every default, its option and its value; NONCE_BYTES too", () => {
    const table = rows(chapter("Limits"));
    const shown = new Map(table.map(([name, option, value]) => [name!, { option, value }]));
    const constants = Object.entries(limits).filter(
      (entry): entry is [string, number] => typeof entry[1] === "number",
    );
    expect(constants.length).toBe(Object.keys(DEFAULT_LIMITS).length);
    for (const [name, value] of constants) {
      const row = shown.get(name);
      expect(row, `${name} in the table`).toBeDefined();
      expect(row?.option).toBe(camel(name));
      expect((DEFAULT_LIMITS as Record<string, number>)[camel(name)]).toBe(value);
      expect(amount(row!.value!), name).toBe(value);
    }
    expect(amount(shown.get("NONCE_BYTES")!.value!)).toBe(NONCE_BYTES);
    expect(table.length).toBe(constants.length + 1);
  });

  it("Close codes: every code of CLOSE_CODES with its name", () => {
    const table = rows(chapter("Close codes")).map(([code, name]) => [Number(code), name]);
    expect(table).toEqual(Object.entries(CLOSE_CODES).map(([name, code]) => [code, name]));
  });

  it("Errors: every code of ERROR_CLOSE_CODES with its close code (— for none)", () => {
    const table = rows(chapter("Errors")).map(([code, close]) => [code, close]);
    expect(table).toEqual(
      Object.entries(ERROR_CLOSE_CODES).map(([code, close]) => [
        code,
        close === undefined ? "—" : String(close),
      ]),
    );
  });
});
