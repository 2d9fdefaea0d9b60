// Command-line habits shared by the demos' bins: a leading `--` (as
// `pnpm demo:team -- --dashboard` passes it) is not an argument, --help and
// --version answer and exit 0, bad usage is one line and a hint, exit 2.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

/** Bad usage: one line naming the problem and a hint, exit 2, before anything starts. */
function usageError(name, message) {
  const line = message.replace(/\s*\n\s*/g, " ");
  process.stderr.write(`${name}: ${line}\nrun "${name} --help" for usage\n`);
  process.exit(2);
}

/**
 * Parses the bin `name`'s arguments (`options`: the demo's own flags, besides
 * -h/--help and -v/--version) and returns their values; prints `help` or the
 * package version and exits 0 when asked, and exits 2 on anything unknown.
 */
export function demoOptions(name, help, options = {}, argv = process.argv.slice(2)) {
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        ...options,
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usageError(name, error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(help);
    process.exit(0);
  }
  if (values.version) {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`${pkg.version}\n`);
    process.exit(0);
  }
  return values;
}
