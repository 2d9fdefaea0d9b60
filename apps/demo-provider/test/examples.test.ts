import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The example transcripts the demo provider speaks in are true: each host
 * line of the file is sent to the real CLI (over stdio, indexing
 * `test/fixtures/example-corpus`) and its replies must be the file's
 * provider lines, byte for byte. `OCP_WRITE_EXAMPLES=1` rewrites the files
 * from what the provider says instead (then review the diff).
 */
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const corpus = fileURLToPath(new URL("./fixtures/example-corpus", import.meta.url));
const examples = new URL("../../../examples/ocp/", import.meta.url);
const HOST_TYPES = new Set(["handshake", "query", "shutdown"]);

const REPLAYED = ["error-budget-unsatisfiable.ndjson", "error-unsupported-kind.ndjson"];

function replay(hostLines: readonly string[]): Promise<string[]> {
  const child = spawn(process.execPath, [cli, "--quiet", corpus], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.stdin.end(`${hostLines.join("\n")}\n`);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the provider exited with ${code}: ${err}`));
      else resolve(out.split("\n").filter((line) => line !== ""));
    });
  });
}

describe("example transcripts in the demo provider's name", () => {
  for (const name of REPLAYED) {
    it(`${name} is what the real demo provider answers`, async () => {
      const file = new URL(name, examples);
      const lines = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "");
      const isHost = (line: string) => HOST_TYPES.has((JSON.parse(line) as { type: string }).type);
      const hostLines = lines.filter(isHost);
      const replies = await replay(hostLines);
      // Request and answer alternate: each host line but shutdown gets one reply.
      const transcript: string[] = [];
      let next = 0;
      for (const line of hostLines) {
        transcript.push(line);
        if ((JSON.parse(line) as { type: string }).type !== "shutdown") {
          transcript.push(replies[next++] ?? "(no reply)");
        }
      }
      expect(next).toBe(replies.length);
      if (process.env.OCP_WRITE_EXAMPLES === "1") {
        writeFileSync(file, `${transcript.join("\n")}\n`);
      }
      expect(transcript).toEqual(lines);
    }, 30_000);
  }
});
