#!/usr/bin/env node
/**
 * `ocp-test`: runs the a2a+ocp compatibility suite against a hub or an agent.
 *
 *   ocp-test --hub ws://127.0.0.1:8080/ [--json] [--strict] [--timeout MS] [--only A,B] [--skip A,B]
 *   ocp-test --agent ws://127.0.0.1:9000/ [options]
 *   ocp-test [options] --agent-cmd -- node my-agent.mjs --hub {hub}
 *   ocp-test --federation-fixture DIR            (prints the peers for the hub's federate file)
 *   ocp-test --hub URL --federation-fixture DIR --federation-link ws://… [options]
 *
 * Exit codes (as `ocp-inspect`): 0 conformant, 1 not conformant, 2 bad usage.
 */
import { runSuiteCli } from "@ocp/conformance/cli-kit";
import { fixtureInit, parseArgs, USAGE } from "./cli-args.js";
import { loadFixture } from "./federation-fixture.js";
import { formatCompatibility } from "./format.js";
import { CLI_EXIT_GRACE_MS } from "./limits.js";
import type { CompatibilityReport } from "./report.js";
import { runCompatibility } from "./run.js";

type Run = Extract<ReturnType<typeof parseArgs>, { kind: "run" }>;

const initDir = fixtureInit(process.argv.slice(2));
if (initDir !== undefined) {
  loadFixture(initDir).then(
    ({ peers }) => {
      process.stdout.write(`${JSON.stringify({ peers }, null, 2)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(
        `ocp-test: --federation-fixture ${initDir}: ${(error as Error).message}\n`,
      );
      process.exitCode = 2;
    },
  );
} else {
  runSuiteCli<Run, CompatibilityReport>(
    {
      name: "ocp-test",
      usage: USAGE,
      packageJson: new URL("../package.json", import.meta.url),
      parse: parseArgs,
      run: async (parsed) => {
        const fixture =
          parsed.federation === undefined ? undefined : await loadFixture(parsed.federation.dir);
        const target =
          fixture === undefined || !("hub" in parsed.target)
            ? parsed.target
            : {
                ...parsed.target,
                federation: { link: parsed.federation!.link, keys: fixture.keys },
              };
        return runCompatibility(target, {
          strict: parsed.strict,
          ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }),
          ...(parsed.only === undefined ? {} : { only: parsed.only }),
          ...(parsed.skip === undefined ? {} : { skip: parsed.skip }),
        });
      },
      format: formatCompatibility,
      conformant: (report) => report.conformant,
    },
    process.argv.slice(2),
    CLI_EXIT_GRACE_MS,
  );
}
