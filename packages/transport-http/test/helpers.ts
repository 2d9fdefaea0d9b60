import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ContextProvider, ContextQuery } from "@ocp/types";
import { wireError } from "@ocp/types";

export interface BareServer {
  readonly url: string;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Request bodies received so far. */
  readonly bodies: string[];
  close(): Promise<void>;
}

/** A bare node:http server on 127.0.0.1 that hands each request (with its whole body) to `handle`. */
export async function bareServer(
  handle: (body: string, request: IncomingMessage, response: ServerResponse) => void,
  host = "127.0.0.1",
): Promise<BareServer> {
  let connections = 0;
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      bodies.push(body);
      handle(body, request, response);
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ocp`,
    connections: () => connections,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(typeof value === "string" ? value : JSON.stringify(value));
}

export const ACK = {
  type: "handshake_ack",
  protocol_version: "ocp/1.0-draft",
  provider: {
    name: "bare",
    version: "1.0.0",
    data_flow: { reads: true, writes: false, egress: false },
  },
  capabilities: {
    query: { kinds: ["doc"], filters: [] },
    upsert: false,
    graph: false,
    subscribe: false,
  },
};

export function query(goal: string): ContextQuery {
  return { goal, kinds: [], anchors: [], max_frames: 5, max_tokens: 100 };
}

/** An in-process provider; goal "fail" throws an OcpError with a wire code, "slow" waits for its signal. */
export function memoryProvider(options: { correlation?: boolean; egress?: boolean } = {}) {
  const calls = { shutdown: 0, aborted: 0, slow: 0 };
  const provider: ContextProvider = {
    id: "mem",
    info: {
      name: "mem",
      version: "1.0.0",
      data_flow: { reads: true, writes: false, egress: options.egress ?? false },
    },
    capabilities: {
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
      ...(options.correlation ? { correlation: true } : {}),
    },
    async query(q, { signal } = {}) {
      if (q.goal === "fail") throw wireError("budget_unsatisfiable", "cannot fit");
      if (q.goal === "invalid-result") return { frames: "not a list", truncated: false } as never;
      if (q.goal === "check-signal") {
        await new Promise((resolve) => setTimeout(resolve, 30));
        if (signal?.aborted) calls.aborted += 1;
      }
      if (q.goal === "slow") {
        calls.slow += 1;
        await new Promise((_, reject) =>
          signal?.addEventListener("abort", () => {
            calls.aborted += 1;
            reject(signal.reason);
          }),
        );
      }
      const frame = {
        id: `mem:${q.goal}`,
        kind: "doc" as const,
        title: q.goal,
        content: "content",
        score: 0.5,
        token_cost: 2,
        citation_label: "mem",
        provenance: [],
        relations: [],
      };
      return { frames: [frame], truncated: false };
    },
    async shutdown() {
      calls.shutdown += 1;
    },
  };
  return { provider, calls };
}

export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code: string; details: Record<string, unknown> };
  }
  throw new Error("expected a rejection");
}
