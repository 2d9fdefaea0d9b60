import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { colourEnv, ESC, onTerminal } from "@ocp/testkit/terminal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostCli, providerCli } from "./helpers.js";

let docs: string;
beforeAll(() => {
  docs = mkdtempSync(join(tmpdir(), "ocp-demo-json-"));
  writeFileSync(join(docs, "lease.md"), "# Leases\n\nA lease renewal extends the lease.\n");
});
afterAll(() => rmSync(docs, { recursive: true, force: true }));

describe("ocp-demo-host --json on a terminal", () => {
  it.each([
    ["NO_COLOR unset", undefined],
    ["NO_COLOR=1", "1"],
  ])(
    "prints one JSON document and no escape sequence (%s)",
    (_name, noColor) => {
      const run = onTerminal(
        [hostCli, "--json", "lease renewal", "--", `notes=${process.execPath}`, providerCli, docs],
        colourEnv(noColor),
      );
      expect(run.status).toBe(0);
      expect(run.stdout).not.toContain(ESC);
      const report = JSON.parse(run.stdout) as {
        question: string;
        composed: { included: unknown[] };
      };
      expect(report.question).toBe("lease renewal");
      expect(report.composed.included.length).toBeGreaterThan(0);
    },
    120_000,
  );
});
