import {
  type Capabilities,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  decodeLine,
  type Envelope,
  encodeJson,
  OcpError,
  PROTOCOL_VERSION,
  type ProviderInfo,
  type QueryOptions,
  versionsCompatible,
} from "@ocp/types";
import { HANDSHAKE_TIMEOUT_MS, QUERY_TIMEOUT_MS } from "./limits.js";

/**
 * A minimal streamable-HTTP {@link ContextProvider} (one envelope per POST),
 * used by the host harness to hand a host an HTTP provider when the host has
 * no HTTP transport of its own. Failures are `OcpError`s: `incompatible_version`,
 * `provider_error`, `malformed_reply`, `connection_failed`, `timeout`.
 */
export async function connectHttpProvider(id: string, url: string): Promise<ContextProvider> {
  const post = async (body: string, timeoutMs: number, signal?: AbortSignal): Promise<Envelope> => {
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal === undefined ? [] : [signal])];
    let text: string;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        signal: AbortSignal.any(signals),
      });
      text = await response.text();
    } catch (cause) {
      const timedOut = (cause as Error).name === "TimeoutError";
      throw new OcpError(
        timedOut ? "timeout" : "connection_failed",
        `POST ${url}: ${(cause as Error).message}`,
        { cause },
      );
    }
    const decoded = decodeLine(text);
    if (!decoded.ok)
      throw new OcpError("malformed_reply", `${url} answered: ${decoded.error.message}`);
    return decoded.value;
  };
  const ack = await post(
    encodeJson({ type: "handshake", protocol_version: PROTOCOL_VERSION }),
    HANDSHAKE_TIMEOUT_MS,
  );
  if (ack.type === "error")
    throw new OcpError("provider_error", `${url} refused the handshake: ${ack.message}`);
  if (ack.type !== "handshake_ack")
    throw new OcpError("malformed_reply", `${url} answered the handshake with "${ack.type}"`);
  if (!versionsCompatible(PROTOCOL_VERSION, ack.protocol_version)) {
    throw new OcpError("incompatible_version", `${url} speaks ${ack.protocol_version} (H3)`);
  }
  const info: ProviderInfo = ack.provider;
  const capabilities: Capabilities = { ...ack.capabilities, correlation: false };
  return {
    id,
    info,
    capabilities,
    protocolVersion: ack.protocol_version,
    async query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
      const reply = await post(
        encodeJson({ type: "query", query }),
        QUERY_TIMEOUT_MS,
        options.signal,
      );
      if (reply.type === "frames") return reply.result;
      if (reply.type === "error") throw new OcpError("provider_error", reply.message);
      throw new OcpError("malformed_reply", `${url} answered a query with "${reply.type}"`);
    },
    async shutdown(): Promise<void> {
      await post(encodeJson({ type: "shutdown" }), HANDSHAKE_TIMEOUT_MS).catch(() => undefined);
    },
  };
}
