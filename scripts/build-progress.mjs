#!/usr/bin/env node
// `turbo run build` with one line of progress per finished package:
//
//   node scripts/build-progress.mjs [TURBO_ARGS...]     e.g. --filter=@ocp/host...
//
//   build: 26 packages
//   build: @ocp/types done (1/26, 41s)
//   build: @ocp/host done, from cache (2/26, 41s)
//   build: still building, 5/26 done (1m20s)
//   build: 26 packages in 3m45s (12 from cache)
//
// turbo runs with --log-order=grouped, which writes a task's output when the
// task has finished; each group becomes one line here. The output of a failed
// task, and turbo's own errors, are printed in full. Exit status: turbo's.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** A line of "still building" after this long without a finished package, ms. */
export const HEARTBEAT_MS = 15_000;

/** `1m05s` or `41s`. */
export function elapsed(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

const ANSI = /\u001b\[[0-9;]*m/g;
const TASK = /^(\S+?):build: (.*)$/;
const FAILED = /ERROR|ERR!|ELIFECYCLE|error TS\d+|exited \(\d+\)|command finished with error/;

/**
 * Reads turbo's grouped output line by line and says, through `print`, what
 * a person waiting needs: how many packages, each one as it finishes, and
 * the total. A failed task's lines, and turbo's own when the build fails, go
 * to `printError`.
 */
export class BuildProgress {
  #total = 0;
  #done = 0;
  #cached = 0;
  /** The task whose group is being read, with its lines. */
  #task;
  #lines = [];
  /** turbo's own lines (banner, summary, errors): shown when the build fails. */
  #other = [];
  #started;
  #now;
  #print;
  #printError;
  #last;

  constructor({ print, printError = print, now = Date.now, total }) {
    if (total !== undefined) {
      this.#total = total;
      print(`build: ${total} package${total === 1 ? "" : "s"}`);
    }
    this.#print = print;
    this.#printError = printError;
    this.#now = now;
    this.#started = now();
    this.#last = this.#started;
  }

  get done() {
    return this.#done;
  }

  /** One line of turbo's output. */
  line(raw) {
    const line = raw.replace(ANSI, "").trimEnd();
    const running = /Running build in (\d+) packages?/.exec(line);
    if (running !== null) {
      if (this.#total > 0) return; // known from the plan: turbo's count includes packages without a build
      this.#total = Number(running[1]);
      this.#print(`build: ${this.#total} package${this.#total === 1 ? "" : "s"}`);
      return;
    }
    const task = TASK.exec(line);
    if (task !== null) {
      if (task[1] !== this.#task) this.#finishTask();
      this.#task ??= task[1];
      this.#lines.push(line);
      return;
    }
    this.#finishTask();
    if (line.trim() !== "") this.#other.push(line);
  }

  /** Prints "still building" when no package finished for `HEARTBEAT_MS`. */
  tick() {
    const now = this.#now();
    if (now - this.#last < HEARTBEAT_MS) return;
    this.#last = now;
    const of = this.#total > 0 ? `/${this.#total}` : "";
    this.#print(`build: still building, ${this.#done}${of} done (${elapsed(now - this.#started)})`);
  }

  /** The end of turbo's output, with its exit status. */
  end(status) {
    this.#finishTask();
    if (status !== 0) for (const line of this.#other) this.#printError(line);
    const took = elapsed(this.#now() - this.#started);
    if (status === 0) {
      const cached = this.#cached > 0 ? ` (${this.#cached} from cache)` : "";
      this.#print(`build: ${this.#done} package${this.#done === 1 ? "" : "s"} in ${took}${cached}`);
    } else {
      this.#printError(`build: failed after ${took} (${this.#done} packages done)`);
    }
  }

  #finishTask() {
    if (this.#task === undefined) return;
    const name = this.#task;
    const lines = this.#lines;
    this.#task = undefined;
    this.#lines = [];
    if (lines.some((line) => FAILED.test(line))) {
      for (const line of lines) this.#printError(line);
      return;
    }
    this.#done += 1;
    this.#last = this.#now();
    const cached = lines.some((line) => / cache hit/.test(line));
    if (cached) this.#cached += 1;
    const of = this.#total > 0 ? `/${this.#total}` : "";
    const how = cached ? ", from cache" : "";
    const took = elapsed(this.#last - this.#started);
    this.#print(`build: ${name} done${how} (${this.#done}${of}, ${took})`);
  }
}

/** The number of build tasks `turbo run build ...args` would run (its dry run), or undefined. */
function plannedBuilds(turbo, args, cwd) {
  const child = spawn(process.execPath, [turbo, "run", "build", "--dry=json", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "ignore"],
  });
  let json = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    json += chunk;
  });
  return new Promise((resolve) => {
    child.once("error", () => resolve(undefined));
    child.once("close", (code) => {
      try {
        const { tasks } = JSON.parse(json);
        resolve(
          code === 0 ? tasks.filter((task) => task.command !== "<NONEXISTENT>").length : undefined,
        );
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** Runs `turbo run build --log-order=grouped ...args` in `cwd`; resolves with its exit status. */
export async function buildWithProgress(args, { cwd, print, printError }) {
  const turbo = createRequire(join(cwd, "package.json")).resolve("turbo/bin/turbo");
  const total = await plannedBuilds(turbo, args, cwd);
  const progress = new BuildProgress({ print, printError, total });
  const child = spawn(
    process.execPath,
    [turbo, "run", "build", "--output-logs=full", "--log-order=grouped", "--no-color", ...args],
    { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
  );
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => progress.line(line));
  }
  const timer = setInterval(() => progress.tick(), 1_000);
  return new Promise((resolve) => {
    child.once("error", (error) => {
      clearInterval(timer);
      printError(`build: cannot run turbo: ${error.message}`);
      resolve(1);
    });
    child.once("close", (code) => {
      clearInterval(timer);
      const status = code ?? 1;
      progress.end(status);
      resolve(status);
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  process.exitCode = await buildWithProgress(process.argv.slice(2), {
    cwd: root,
    print: (line) => process.stdout.write(`${line}\n`),
    printError: (line) => process.stderr.write(`${line}\n`),
  });
}
