import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { createHttpProviderServer } from "@ocp/transport-http";
import { serveStdio } from "@ocp/transport-stdio";
import Ajv2020Module from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { createFixtureProvider } from "../src/index.js";
import { fixtureCommand } from "../src/internal.js";
import { REFERENCE_ENVELOPE_SCHEMA } from "../src/reference-schema.js";

/**
 * The reference's published schema, closed objects and all. One relaxation,
 * pinned by `@ocp/types`' reference test: a frame's empty `provenance` and
 * `relations` may be absent, as the reference itself now writes them.
 */
function referenceValidator() {
  const schema = structuredClone(REFERENCE_ENVELOPE_SCHEMA) as {
    $defs: { ContextFrame: { required: string[] } };
  };
  const frame = schema.$defs.ContextFrame;
  frame.required = frame.required.filter((name) => name !== "provenance" && name !== "relations");
  const ajv = new Ajv2020Module.default({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  return (raw: string) => {
    const ok = validate(JSON.parse(raw));
    return ok ? "" : `${raw}: ${ajv.errorsText(validate.errors)}`;
  };
}
const reference = referenceValidator();

/** What a plain host sends: no extension asked for, the reference's own messages, plus bad input. */
const PLAIN = [
  '{"type":"handshake","protocol_version":"ocp/1.0-draft"}',
  '{"type":"query","query":{"goal":"retry","kinds":[],"anchors":[],"max_frames":8,"max_tokens":4096}}',
  '{"type":"query","query":{"goal":"images","kinds":["episode"],"anchors":[],"max_frames":8,"max_tokens":4096}}',
  "this is not json {{{",
  '{"type":"handshake","protocol_version":"ocp/99.0"}',
];

/** Sends `lines` to a stdio provider one by one and collects every reply line. */
async function overStdio(
  lines: readonly string[],
  start: (input: PassThrough, output: PassThrough) => void,
) {
  const input = new PassThrough();
  const output = new PassThrough();
  const replies: string[] = [];
  let buffered = "";
  let wake: (() => void) | undefined;
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let at = buffered.indexOf("\n"); at !== -1; at = buffered.indexOf("\n")) {
      replies.push(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      wake?.();
    }
  });
  start(input, output);
  for (const [index, line] of lines.entries()) {
    input.write(`${line}\n`);
    while (replies.length <= index) await new Promise<void>((resolve) => (wake = resolve));
  }
  input.end();
  return replies;
}

function fixtureChild(env: Record<string, string>) {
  return (input: PassThrough, output: PassThrough) => {
    const { command, args } = fixtureCommand();
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? "", ...env } });
    input.pipe(child.stdin);
    child.stdout.pipe(output);
  };
}

/** The honest fixture, in process, declaring correlation as its wire twin does. */
function correlating() {
  const provider = createFixtureProvider();
  return { ...provider, capabilities: { ...provider.capabilities, correlation: true } };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function overHttp(lines: readonly string[], headers: Record<string, string>) {
  const server = createHttpProviderServer(correlating(), { log: () => {} });
  closers.push(() => server.close());
  const url = await server.listen();
  const replies: string[] = [];
  for (const body of lines) {
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    });
    replies.push(await response.text());
  }
  return replies;
}

const served = (extensions: string) => (input: PassThrough, output: PassThrough) => {
  serveStdio(correlating(), { input, output, log: () => {}, exit: () => {}, extensions });
};

describe("X-CORR, X-CODE: an extension reaches only a peer that asked for it", () => {
  it("a plain reference-style peer receives only messages valid against the reference's published schema", async () => {
    const runs = [
      await overStdio(PLAIN, fixtureChild({})),
      await overStdio(PLAIN, served("")),
      await overHttp(PLAIN, {}),
    ];
    for (const replies of runs) {
      expect(replies).toHaveLength(PLAIN.length);
      expect(replies.map(reference).filter(Boolean)).toEqual([]);
      expect(replies.join("\n")).not.toMatch(/"correlation"|"code"|"id":"ocp/);
    }
  });

  it("a peer that asked gets correlation, echoed ids and error codes", async () => {
    const asked = [
      '{"type":"handshake","protocol_version":"ocp/1.0-draft"}',
      '{"type":"query","id":"q-1","query":{"goal":"retry","max_frames":8,"max_tokens":4096}}',
      '{"type":"query","id":"q-2","query":{"goal":"images","kinds":["episode"],"max_frames":8,"max_tokens":4096}}',
    ];
    const runs = [
      await overStdio(asked, fixtureChild({ OCP_EXTENSIONS: "correlation,error_code" })),
      await overStdio(asked, served("correlation,error_code")),
      await overHttp(asked, { "ocp-extensions": "correlation,error_code" }),
    ];
    for (const replies of runs) {
      const [ack, frames, error] = replies.map((line) => JSON.parse(line));
      expect(ack.capabilities.correlation).toBe(true);
      expect(frames).toMatchObject({ type: "frames", id: "q-1" });
      expect(error).toMatchObject({ type: "error", id: "q-2", code: "unsupported_kind" });
    }
  });
});

describe("the reference's schema", () => {
  it("shipped in reference/ is the reference's published file, byte for byte", async () => {
    const { readFile } = await import("node:fs/promises");
    const ours = await readFile(new URL("../reference/ocp-envelope.schema.json", import.meta.url));
    const theirs = await readFile(
      new URL("../../types/test/fixtures/reference/ocp-envelope.schema.json", import.meta.url),
    );
    expect(ours.equals(theirs)).toBe(true);
  });
});
