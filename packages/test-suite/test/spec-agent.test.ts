/**
 * The spec-literal test agent of `@ocp/a2a-ocp-agent` (written from the
 * specification only) under `ocp-test --agent-cmd`. It is compiled here
 * (TypeScript's transpiler, as is) next to `spec-agent-wrapper.ts`, and run
 * as a child. The report says which features it has: it registers with a
 * signed profile; what it lacks shows as failed or skipped checks with the
 * reason (today: it answers no collective query and no awareness query,
 * and does not vote).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { runCompatibility } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const SPEC_AGENT = join(
  dirname(createRequire(import.meta.url).resolve("@ocp/a2a-ocp-agent/package.json")),
  "test",
  "spec-only",
  "spec-agent.ts",
);
// Inside this package, so the compiled files resolve `ws` from its dependencies.
const out = join(here, "..", "node_modules", ".spec-agent");
afterAll(() => rmSync(out, { recursive: true, force: true }));

function compile(source: string, target: string): void {
  const { outputText } = ts.transpileModule(readFileSync(source, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  writeFileSync(target, outputText);
}

describe("the spec-literal agent under --agent-cmd", () => {
  it("registers with a signed profile; every check reports what it has, with evidence", async () => {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
    compile(SPEC_AGENT, join(out, "spec-agent.js"));
    compile(join(here, "spec-agent-wrapper.ts"), join(out, "wrapper.js"));
    const report = await runCompatibility({
      agentCommand: [process.execPath, join(out, "wrapper.js")],
    });
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName["agent-registration"]?.status).toBe("pass");
    expect(byName["agent-registration"]?.evidence).toMatch(/a2a:\/\/spec-agent-\d+/);
    for (const check of report.checks) expect(check.evidence.length).toBeGreaterThan(0);
    // Knowledge checks are observed through collective queries: when the agent answers
    // none, they skip and name the reason, rather than pass.
    if (byName["agent-collective-query"]?.status === "fail")
      for (const name of [
        "agent-signatures",
        "agent-visibility",
        "agent-knowledge-updates",
        "agent-authorship",
      ])
        expect(byName[name]?.status).toBe("skipped");
    console.info(
      report.checks.map((c) => `${c.name}: ${c.status} — ${c.evidence.slice(0, 120)}`).join("\n"),
    );
  }, 120_000);
});
