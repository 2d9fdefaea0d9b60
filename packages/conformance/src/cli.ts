#!/usr/bin/env node
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
import { parseArgs, USAGE } from "./cli-args.js";
import { EXIT_CODES, exitCodeOf } from "./format.js";
import { CLI_EXIT_GRACE_MS } from "./limits.js";
import type { ConformanceReport } from "./report.js";

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.kind === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === "version") {
    const { readFileSync } = await import("node:fs");
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`${(pkg as { version: string }).version}\n`);
    return 0;
  }
  if (parsed.kind === "usage-error") {
    // One line naming the problem and a hint, not the whole usage text.
    process.stderr.write(`ocp-inspect: ${parsed.message}\nrun "ocp-inspect --help" for usage\n`);
    return EXIT_CODES.usage;
  }
  let report: ConformanceReport;
  if (parsed.kind === "host") {
    const { runHostConformance } = await import("./host-harness.js");
    report = await runHostConformance();
  } else if (parsed.kind === "cgp-host") {
    const { runCgpHostConformance } = await import("./cgp/host-harness.js");
    report = await runCgpHostConformance({
      command: parsed.command,
      args: parsed.args,
      grantFlag: parsed.grantFlag,
    });
  } else {
    const { runFamilyConformance } = await import("./family.js");
    report = await runFamilyConformance(parsed.target, {
      family: parsed.family ?? "ocp",
      strict: parsed.strict,
      ...(parsed.goal === undefined ? {} : { goal: parsed.goal }),
      ...(parsed.maxTokens === undefined ? {} : { maxTokens: parsed.maxTokens }),
      ...(parsed.timeoutMs === undefined
        ? {}
        : { queryTimeoutMs: parsed.timeoutMs, mismatchTimeoutMs: parsed.timeoutMs }),
    });
  }
  if (parsed.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
    const { formatReport } = await import("./format.js");
    process.stdout.write(formatReport(report, { color }));
  }
  return exitCodeOf(report);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Children and sockets are gone; do not wait on a provider's stray handles.
    setTimeout(() => process.exit(code), CLI_EXIT_GRACE_MS).unref();
  },
  (error: unknown) => {
    process.stderr.write(`ocp-inspect: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
