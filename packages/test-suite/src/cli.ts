#!/usr/bin/env node
/**
 * `ocp-test`: runs the a2a+ocp compatibility suite against a hub or an agent.
 *
 *   ocp-test --hub ws://127.0.0.1:8080/ [--json] [--strict] [--timeout MS] [--only A,B] [--skip A,B]
 *   ocp-test --agent ws://127.0.0.1:9000/ [options]
 *   ocp-test [options] --agent-cmd -- node my-agent.mjs --hub {hub}
 *
 * Exit codes (as `ocp-inspect`): 0 conformant, 1 not conformant, 2 bad usage.
 */
import { runSuiteCli } from "@ocp/conformance/cli-kit";
import { parseArgs, USAGE } from "./cli-args.js";
import { formatCompatibility } from "./format.js";
import { CLI_EXIT_GRACE_MS } from "./limits.js";
import type { CompatibilityReport } from "./report.js";
import { runCompatibility } from "./run.js";

type Run = Extract<ReturnType<typeof parseArgs>, { kind: "run" }>;

runSuiteCli<Run, CompatibilityReport>(
  {
    name: "ocp-test",
    usage: USAGE,
    packageJson: new URL("../package.json", import.meta.url),
    parse: parseArgs,
    run: (parsed) =>
      runCompatibility(parsed.target, {
        strict: parsed.strict,
        ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }),
        ...(parsed.only === undefined ? {} : { only: parsed.only }),
        ...(parsed.skip === undefined ? {} : { skip: parsed.skip }),
      }),
    format: formatCompatibility,
    conformant: (report) => report.conformant,
  },
  process.argv.slice(2),
  CLI_EXIT_GRACE_MS,
);
