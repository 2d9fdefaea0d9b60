import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  BODY_EXCERPT_CHARS,
  connectHttpProvider,
  createHttpProviderServer,
  HANDSHAKE_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_BODY_BYTES,
  MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS,
} from "../src/index.js";
import {
  ACK,
  type BareServer,
  bareServer,
  json,
  memoryProvider,
  query,
  rejection,
} from "./helpers.js";

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((server) => server.close()));
});

/** A query envelope padded (in its goal) to exactly `bytes` bytes. */
function queryOfSize(bytes: number): string {
  const empty = JSON.stringify({
    type: "query",
    query: { goal: "", max_frames: 1, max_tokens: 1 },
  });
  return JSON.stringify({
    type: "query",
    query: { goal: "x".repeat(bytes - empty.length), max_frames: 1, max_tokens: 1 },
  });
}

describe("limits", () => {
  it("every limit has a finite, positive default", () => {
    expect({
      MAX_BODY_BYTES,
      REQUEST_TIMEOUT_MS,
      HANDSHAKE_TIMEOUT_MS,
      MAX_CONNECTIONS,
      KEEP_ALIVE_TIMEOUT_MS,
      BODY_EXCERPT_CHARS,
    }).toEqual({
      MAX_BODY_BYTES: 16 * 1024 * 1024,
      REQUEST_TIMEOUT_MS: 30_000,
      HANDSHAKE_TIMEOUT_MS: 10_000,
      MAX_CONNECTIONS: 8,
      KEEP_ALIVE_TIMEOUT_MS: 4_000,
      BODY_EXCERPT_CHARS: 200,
    });
  });

  it("refuses 0 as a limit: 0 never means unlimited", async () => {
    expect(() => createHttpProviderServer(memoryProvider().provider, { maxBodyBytes: 0 })).toThrow(
      RangeError,
    );
    for (const option of [
      "requestTimeoutMs",
      "handshakeTimeoutMs",
      "maxBodyBytes",
      "connections",
      "keepAliveTimeoutMs",
    ]) {
      expect(
        await rejection(connectHttpProvider({ id: "p", url: "http://127.0.0.1:1/", [option]: 0 })),
      ).toBeInstanceOf(RangeError);
    }
  });

  it("server: accepts a request body of exactly maxBodyBytes and refuses one byte more with 413", async () => {
    const server = createHttpProviderServer(memoryProvider().provider, { maxBodyBytes: 2048 });
    closers.push(server);
    const url = await server.listen();
    const post = async (body: string) =>
      (
        await request(url, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" },
        })
      ).statusCode;
    expect(await post(queryOfSize(2048))).toBe(200);
    expect(await post(queryOfSize(2049))).toBe(413);
  });

  it("client: reads a response body of exactly maxBodyBytes and stops at one byte more", async () => {
    let size = 0;
    const server: BareServer = await bareServer((body, _request, response) => {
      if (JSON.parse(body).type === "handshake") return json(response, 200, ACK);
      const frames = (pad: string) =>
        JSON.stringify({ type: "frames", result: { frames: [], truncated: false }, pad });
      json(response, 200, frames("p".repeat(size - frames("").length)));
    });
    closers.push(server);
    const provider = await connectHttpProvider({ id: "p", url: server.url, maxBodyBytes: 4096 });
    size = 4096;
    expect((await provider.query(query("x"))).frames).toEqual([]);
    size = 4097;
    expect((await rejection(provider.query(query("x")))).code).toBe("body_too_large");
    await provider.shutdown();
  });

  it("client: stops reading a chunked body (no declared length) once it passes maxBodyBytes", async () => {
    const server = await bareServer((body, _request, response) => {
      if (JSON.parse(body).type === "handshake") return json(response, 200, ACK);
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = "p".repeat(1024);
      const more = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once("drain", more);
      };
      response.on("close", () => response.removeAllListeners("drain"));
      more();
    });
    closers.push(server);
    const provider = await connectHttpProvider({
      id: "p",
      url: server.url,
      maxBodyBytes: 64 * 1024,
    });
    const error = await rejection(provider.query(query("x")));
    expect(error.code).toBe("body_too_large");
    await provider.shutdown();
  });

  it("times out a handshake that never comes (handshake timeout)", async () => {
    const server = await bareServer(() => {});
    closers.push(server);
    const error = await rejection(
      connectHttpProvider({ id: "p", url: server.url, handshakeTimeoutMs: 100 }),
    );
    expect(error.code).toBe("timeout");
    expect(error.details.timeoutMs).toBe(100);
  });
});
