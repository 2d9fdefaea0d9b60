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
import { createRequire } from "node:module";
import { EXIT_CODES, exitCodeOf } from "@ocp/conformance";
import { parseArgs, USAGE } from "./cli-args.js";
import { formatCompatibility } from "./format.js";
import { CLI_EXIT_GRACE_MS } from "./limits.js";
import { runCompatibility } from "./run.js";

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.kind === "help") {
    process.stdout.write(USAGE);
    return EXIT_CODES.conformant;
  }
  if (parsed.kind === "version") {
    const manifest = createRequire(import.meta.url)("../package.json") as { version: string };
    process.stdout.write(`${manifest.version}\n`);
    return EXIT_CODES.conformant;
  }
  if (parsed.kind === "usage-error") {
    process.stderr.write(`ocp-test: ${parsed.message}\nrun "ocp-test --help" for usage\n`);
    return EXIT_CODES.usage;
  }
  const report = await runCompatibility(parsed.target, {
    strict: parsed.strict,
    ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }),
    ...(parsed.only === undefined ? {} : { only: parsed.only }),
    ...(parsed.skip === undefined ? {} : { skip: parsed.skip }),
  });
  if (parsed.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const color = process.stdout.isTTY === true && process.env["NO_COLOR"] === undefined;
    process.stdout.write(formatCompatibility(report, { color }));
  }
  return exitCodeOf(report);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), CLI_EXIT_GRACE_MS).unref();
  },
  (error: unknown) => {
    process.stderr.write(`ocp-test: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(EXIT_CODES.notConformant);
  },
);
