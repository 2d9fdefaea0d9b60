#!/usr/bin/env node
import { parseArgs, USAGE } from "./cli-args.js";
/**
 * `ocp-inspect`: probe an OCP provider (or host) and run the conformance
 * suite. Same surface as the Rust reference's inspector:
 *
 *   ocp-inspect stdio [--query Q] [--json] [--strict] -- PROGRAM ARGS…
 *   ocp-inspect http  [--query Q] [--json] [--strict] URL
 *   ocp-inspect host  [--json]
 *
 * Exit codes: 0 conformant, 1 not conformant, 2 bad usage. The suite itself
 * is loaded only once the command line is known to be good.
 */
import { runSuiteCli } from "./cli-kit.js";
import { CLI_EXIT_GRACE_MS } from "./limits.js";
import type { ConformanceReport } from "./report.js";

type Run = Extract<ReturnType<typeof parseArgs>, { json: boolean }>;

async function run(parsed: Run): Promise<ConformanceReport> {
  if (parsed.kind === "host") {
    const { runHostConformance } = await import("./host-harness.js");
    return runHostConformance();
  }
  if (parsed.kind === "cgp-host") {
    const { runCgpHostConformance } = await import("./cgp/host-harness.js");
    return runCgpHostConformance({
      command: parsed.command,
      args: parsed.args,
      grantFlag: parsed.grantFlag,
    });
  }
  const { runFamilyConformance } = await import("./family.js");
  return runFamilyConformance(parsed.target, {
    family: parsed.family ?? "ocp",
    strict: parsed.strict,
    ...(parsed.goal === undefined ? {} : { goal: parsed.goal }),
    ...(parsed.maxTokens === undefined ? {} : { maxTokens: parsed.maxTokens }),
    ...(parsed.timeoutMs === undefined
      ? {}
      : { queryTimeoutMs: parsed.timeoutMs, mismatchTimeoutMs: parsed.timeoutMs }),
  });
}

runSuiteCli<Run, ConformanceReport>(
  {
    name: "ocp-inspect",
    usage: USAGE,
    packageJson: new URL("../package.json", import.meta.url),
    parse: parseArgs,
    run,
    format: async (report, options) => (await import("./format.js")).formatReport(report, options),
    conformant: (report) => report.conformant,
  },
  process.argv.slice(2),
  CLI_EXIT_GRACE_MS,
);
