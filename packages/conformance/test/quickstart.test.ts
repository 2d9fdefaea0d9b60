import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runConformance } from "../src/index.js";
import { FAST, failed } from "./helpers.js";

describe("the provider kit makes the README's provider conformant", () => {
  it("@ocp/transport-stdio's README provider passes ocp-inspect --strict out of the box (the guard filters kinds, packs)", async () => {
    const example = fileURLToPath(
      new URL("../../transport-stdio/examples/provider.mjs", import.meta.url),
    );
    const report = await runConformance(
      { command: process.execPath, args: [example] },
      { ...FAST, strict: true },
    );
    expect(failed(report)).toEqual([]);
    expect(report.conformant).toBe(true);
  });
});
