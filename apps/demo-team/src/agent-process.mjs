// The agent side of the demos' JSON-line protocol: each agent process reads
// one command a line on stdin and reports events as JSON lines on stdout.
import { createInterface } from "node:readline";

/** Writes event `ev` of agent `name` (with `data`) as one JSON line on stdout. */
export const reporter =
  (name) =>
  (ev, data = {}) =>
    process.stdout.write(`${JSON.stringify({ ev, agent: name, ...data })}\n`);

/**
 * Answers each command line on stdin with `run(cmd)`: a `done` event with
 * the command's id and result, or a `failed` one with the error's message.
 * Then reports `ready` with the agent's id.
 */
export function serveCommands(run, out, id) {
  createInterface({ input: process.stdin }).on("line", (line) => {
    const cmd = JSON.parse(line);
    run(cmd).then(
      (result) => out("done", { id: cmd.id, ...result }),
      (error) =>
        out("failed", {
          id: cmd.id,
          message: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  out("ready", { id });
}

/** A knowledge node of agent `name` (`createdBy`), `extra` spread over the defaults. */
export function knowledgeNode(name, createdBy, title, extra = {}) {
  const { title: _title, ...rest } = extra;
  return {
    id: `${name.replace("/", "-")}-${globalThis.crypto.randomUUID()}`,
    type: "code.solution",
    title,
    data: {},
    confidence: 0.9,
    timestamp: new Date().toISOString(),
    createdBy,
    tags: [],
    ...rest,
  };
}
