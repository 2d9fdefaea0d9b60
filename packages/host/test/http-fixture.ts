/**
 * Test-only stand-ins for `@ocp/transport-http` while that package is not on
 * this branch: a node:http provider server answering one JSON envelope per
 * POST, and a minimal client adapter that is a `ContextProvider`. Both speak
 * the envelopes of `@ocp/types`; neither is shipped.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import {
  type ContextProvider,
  decodeEnvelope,
  type EnvelopeInit,
  PROTOCOL_VERSION,
  type ProviderInfo,
  toWire,
} from "@ocp/types";

export interface FixtureServer {
  readonly url: string;
  readonly port: number;
  /** Query envelopes the provider handled. */
  readonly queries: number;
  close(): Promise<void>;
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Serves `provider` on 127.0.0.1: one envelope per POST, one envelope back. */
export async function serveHttpFixture(provider: ContextProvider): Promise<FixtureServer> {
  let queries = 0;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const reply = (envelope: EnvelopeInit) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(toWire(envelope)));
      };
      const decoded = decodeEnvelope(JSON.parse(await body(request)));
      if (!decoded.ok)
        return reply({ type: "error", code: "bad_request", message: decoded.error.message });
      const envelope = decoded.value;
      if (envelope.type === "handshake") {
        return reply({
          type: "handshake_ack",
          protocol_version: PROTOCOL_VERSION,
          provider: provider.info,
          capabilities: provider.capabilities,
        });
      }
      if (envelope.type === "query") {
        queries += 1;
        try {
          return reply({ type: "frames", result: await provider.query(envelope.query) });
        } catch (error) {
          return reply({ type: "error", code: "internal", message: String(error) });
        }
      }
      if (envelope.type === "shutdown") {
        response.writeHead(204);
        return response.end();
      }
      return reply({ type: "error", code: "bad_request", message: `unexpected ${envelope.type}` });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}/`,
    port: address.port,
    get queries() {
      return queries;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function post(url: string, envelope: EnvelopeInit, signal?: AbortSignal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify(toWire(envelope)),
    signal,
  });
  if (response.status === 204) return undefined;
  const decoded = decodeEnvelope(await response.json());
  if (!decoded.ok) throw decoded.error;
  return decoded.value;
}

/** The minimal client adapter: handshake on connect, one POST per query. */
export async function connectHttpFixture(options: {
  id: string;
  url: string;
}): Promise<ContextProvider> {
  const ack = await post(options.url, { type: "handshake", protocol_version: PROTOCOL_VERSION });
  if (ack?.type !== "handshake_ack") throw new Error("no handshake_ack");
  const info: ProviderInfo = {
    ...ack.provider,
    data_flow: { ...ack.provider.data_flow, egress: true },
  };
  return {
    id: options.id,
    info,
    capabilities: ack.capabilities,
    protocolVersion: ack.protocol_version,
    async query(query, queryOptions = {}) {
      const reply = await post(options.url, { type: "query", query }, queryOptions.signal);
      if (reply?.type === "frames") return reply.result;
      throw new Error(reply?.type === "error" ? reply.message : "unexpected reply");
    },
    async shutdown() {
      await post(options.url, { type: "shutdown" }).catch(() => undefined);
    },
  };
}
