import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { BRIDGE_ERROR_CODES } from "../src/errors.js";
import * as limits from "../src/limits.js";
import { root, run, SLOW } from "./helpers.js";

const readme = () => readFile(`${root}/README.md`, "utf8");
/** A file of docs/, where the reference tables and the CLI help moved out of the README. */
const doc = (name: string) => readFile(`${root}/docs/${name}`, "utf8");

/** The rows of the table between `<!-- name -->` and `<!-- /name -->` of docs/reference.md, as trimmed cells. */
async function table(name: string): Promise<string[][]> {
  const text = await doc("reference.md");
  const body = text.slice(text.indexOf(`<!-- ${name} -->`), text.indexOf(`<!-- /${name} -->`));
  return body
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe("README", () => {
  it("links the docs its tables and the --help of both commands moved to", async () => {
    const text = await readme();
    expect(text).toContain("[docs/reference.md](docs/reference.md)");
    expect(text).toContain("[docs/cli.md](docs/cli.md#ocp-from-mcp---help)");
    expect(text).toContain("[docs/cli.md](docs/cli.md#ocp-to-mcp---help)");
  });

  it("docs/reference.md lists every limit of src/limits.ts with its value", async () => {
    const constants = Object.entries(limits)
      .filter(([, value]) => typeof value === "number")
      .map(([name, value]) => [`\`${name}\``, String(value)]);
    expect(constants.length).toBeGreaterThan(0);
    const sort = (rows: string[][]) => [...rows].sort((a, b) => a[0]!.localeCompare(b[0]!));
    expect(sort(await table("limits"))).toEqual(sort(constants));
  });

  it("docs/reference.md lists every error code with its meaning", async () => {
    const codes = Object.entries(BRIDGE_ERROR_CODES).map(([code, meaning]) => [
      `\`${code}\``,
      meaning,
    ]);
    expect(await table("errors")).toEqual(codes);
  });

  it(
    "docs/cli.md shows the --help of both commands verbatim",
    async () => {
      const text = await doc("cli.md");
      for (const bin of ["from-mcp-cli.js", "to-mcp-cli.js"]) {
        const { stdout } = await run(process.execPath, [`${root}/dist/${bin}`, "--help"], {
          timeout: SLOW,
        });
        expect(text).toContain(`\`\`\`text\n${stdout}\`\`\``);
      }
    },
    SLOW,
  );
});
