import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const CGP_PROVIDER = fileURLToPath(new URL("./fixtures/cgp-provider.mjs", import.meta.url));
export const CGP_HTTP_PROVIDER = fileURLToPath(
  new URL("./fixtures/cgp-http-provider.mjs", import.meta.url),
);

export const CGP_QUERY = {
  goal: "how does the retry loop give up",
  query_text: "retry loop",
  kinds: ["doc" as const],
  anchors: [],
  max_frames: 4,
  max_tokens: 200,
};

/** A temporary folder and the record file a fixture appends every received envelope to. */
export async function scratch(): Promise<{
  dir: string;
  record: string;
  done: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), "ocp-cgp-"));
  return {
    dir,
    record: join(dir, "received.ndjson"),
    done: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Every envelope the fixture recorded (an absent file: nothing arrived). */
export async function received(record: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(record, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The envelope types a stdio fixture received, in order. */
export async function typesReceived(record: string): Promise<string[]> {
  return (await received(record)).map((e) => String(e.type));
}

/** Spawn options of the stdio fixture named `id`, recording to `record`. */
export function cgpStdio(id: string, record: string, flags: string[] = []) {
  return {
    id,
    command: process.execPath,
    args: [CGP_PROVIDER, "--name", id, "--record", record, ...flags],
  };
}

/** Starts the HTTP fixture and resolves with its port once it listens. */
export function startCgpHttp(flags: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [CGP_HTTP_PROVIDER, ...flags], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /\{"port":(\d+)\}/.exec(seen);
      if (match?.[1]) resolve({ child, port: Number(match[1]) });
    });
    child.once("exit", (code) => reject(new Error(`HTTP fixture exited with ${code}`)));
  });
}
