import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/**
 * `@ocp/testkit/ndjson`: a provider child driven line by line, as a host of
 * any family would drive it (only `node:` modules, so the Open Context
 * packages' tests can use it without the a2a+ocp helpers).
 */
export interface NdjsonChild {
  readonly child: ChildProcessWithoutNullStreams;
  send(message: unknown): void;
  /** The next line the child writes, parsed; fails after `ms`. */
  next(ms?: number): Promise<Record<string, unknown>>;
  /** Settles with the exit code. */
  readonly exited: Promise<number | null>;
  stderr(): string;
}

export function ndjsonChild(command: string, args: readonly string[]): NdjsonChild {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffer = "";
  let errors = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const taker = waiting.shift();
      if (taker) taker(line);
      else lines.push(line);
      newline = buffer.indexOf("\n");
    }
  });
  child.stderr.on("data", (chunk) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    child,
    exited,
    stderr: () => errors,
    send(message) {
      child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
    },
    next(ms = 20_000) {
      const ready = lines.shift();
      if (ready !== undefined) return Promise.resolve(JSON.parse(ready));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no line within ${ms} ms; stderr: ${errors}`)),
          ms,
        );
        waiting.push((line) => {
          clearTimeout(timer);
          resolve(JSON.parse(line));
        });
      });
    },
  };
}
