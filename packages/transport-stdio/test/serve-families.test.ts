import { PassThrough } from "node:stream";
import type { ContextProvider } from "@ocp/types";
import { describe, expect, it } from "vitest";
import { serveStdio } from "../src/index.js";

const provider: ContextProvider = {
  id: "graph",
  info: {
    name: "graph",
    version: "1.0.0",
    data_flow: { reads: true, writes: false, egress: false },
  },
  capabilities: {
    query: { kinds: ["doc"], filters: [] },
    upsert: false,
    graph: false,
    subscribe: false,
  },
  async query() {
    return { frames: [], truncated: false };
  },
  async shutdown() {},
};

/** Serves `provider` for the given families; `next()` is the next reply line, parsed. */
function serve(families: ("ocp/1" | "contextgraph/1")[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  serveStdio(provider, { input, output, families, log: () => {}, exit: () => {} });
  const lines: Record<string, unknown>[] = [];
  let buffered = "";
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      lines.push(JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  const next = async () => {
    for (let waited = 0; lines.length === 0 && waited < 5_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const line = lines.shift();
    if (line === undefined) throw new Error("no reply within 5 s");
    return line;
  };
  return { write: (line: unknown) => input.write(`${JSON.stringify(line)}\n`), next };
}

describe("serveStdio families", () => {
  it("families: [contextgraph/1] refuses an ocp/1 handshake by name, then acks a contextgraph/1 one", async () => {
    const served = serve(["contextgraph/1"]);
    served.write({ type: "handshake", protocol_version: "ocp/1.0-draft" });
    const refused = await served.next();
    expect(refused.type).toBe("error");
    expect(String(refused.message)).toContain("contextgraph/1.0-draft only");
    served.write({ type: "handshake", protocol_version: "contextgraph/1.0-draft" });
    expect(await served.next()).toMatchObject({
      type: "handshake_ack",
      protocol_version: "contextgraph/1.0-draft",
    });
  });

  it("the default (both families) still acks an ocp/1 handshake", async () => {
    const served = serve(["ocp/1", "contextgraph/1"]);
    served.write({ type: "handshake", protocol_version: "ocp/1.0-draft" });
    expect(await served.next()).toMatchObject({
      type: "handshake_ack",
      protocol_version: "ocp/1.0-draft",
    });
  });
});
