import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpProviderServer, type HttpProviderServer } from "../src/index.js";
import { memoryProvider } from "./helpers.js";

const started: HttpProviderServer[] = [];
async function serve(...args: Parameters<typeof createHttpProviderServer>) {
  const server = createHttpProviderServer(...args);
  started.push(server);
  const url = await server.listen();
  const post = async (
    body: string,
    // As our client does: it asks for our extensions (X-CORR, X-CODE) on every request.
    headers: Record<string, string> = {
      "content-type": "application/json",
      "ocp-extensions": "correlation,error_code",
    },
    to = url,
  ) => {
    const response = await request(to, { method: "POST", body, headers });
    return {
      status: response.statusCode,
      body: (await response.body.json()) as Record<string, unknown>,
    };
  };
  return { server, url, post };
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

const handshake = JSON.stringify({ type: "handshake", protocol_version: "ocp/1.0-draft" });
const queryBody = (goal: string, id?: string) =>
  JSON.stringify({
    type: "query",
    ...(id ? { id } : {}),
    query: { goal, max_frames: 1, max_tokens: 10 },
  });

describe("createHttpProviderServer", () => {
  it("answers a handshake with the provider's identity, declaring correlation only if the provider does", async () => {
    const { post } = await serve(memoryProvider().provider);
    const plain = await post(handshake);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ type: "handshake_ack", provider: { name: "mem" } });
    expect((plain.body.capabilities as Record<string, unknown>).correlation).toBeUndefined();
    const { post: postCorrelated } = await serve(memoryProvider({ correlation: true }).provider);
    expect(
      ((await postCorrelated(handshake)).body.capabilities as Record<string, unknown>).correlation,
    ).toBe(true);
  });

  it("answers a query with frames, echoing its id when it has one", async () => {
    const { post } = await serve(memoryProvider({ correlation: true }).provider);
    const withId = await post(queryBody("a", "q-1"));
    expect(withId).toMatchObject({
      status: 200,
      body: { type: "frames", id: "q-1", result: { frames: [{ id: "mem:a" }] } },
    });
    const without = await post(queryBody("b"));
    expect(without.body.id).toBeUndefined();
  });

  it("answers a provider failure with an error envelope carrying its wire code", async () => {
    const { post } = await serve(memoryProvider().provider);
    expect(await post(queryBody("fail", "f"))).toEqual({
      status: 200,
      body: { type: "error", id: "f", code: "budget_unsatisfiable", message: "cannot fit" },
    });
  });

  it("answers an invalid provider result with an internal error envelope, never an invalid envelope", async () => {
    const { post } = await serve(memoryProvider().provider);
    expect(await post(queryBody("invalid-result"))).toMatchObject({
      status: 200,
      body: { type: "error", code: "internal" },
    });
  });

  it("R1: answers a body that is not JSON, or not an envelope, with 400 and a bad_request error envelope", async () => {
    const { post } = await serve(memoryProvider().provider);
    for (const body of [
      "{ nope",
      '{"type":"query","query":{"goal":7}}',
      '{"type":"frames","result":{"frames":[],"truncated":false}}',
      // Nested far deeper than a call stack: one more body that is no envelope.
      `{"type":"query","query":${"[".repeat(200_000)}${"]".repeat(200_000)}}`,
    ]) {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: "error", code: "bad_request" });
    }
    expect((await post(handshake)).status).toBe(200);
  });

  it("answers another content type with 415, another path with 404, each with an error envelope", async () => {
    const { post, url } = await serve(memoryProvider().provider);
    expect(await post(handshake, { "content-type": "text/plain" })).toMatchObject({
      status: 415,
      body: { type: "error" },
    });
    expect(await post(handshake, undefined, new URL("/elsewhere", url).toString())).toMatchObject({
      status: 404,
      body: { type: "error" },
    });
  });

  it("refuses a body over the limit with 413 and an error envelope", async () => {
    const { post } = await serve(memoryProvider().provider, { maxBodyBytes: 1024 });
    const answer = await post(queryBody("x".repeat(2000)));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ type: "error", code: "bad_request" });
  });

  it("requires the bearer token when configured: 401 with an error envelope otherwise", async () => {
    const { post } = await serve(memoryProvider().provider, { token: "t0ken" });
    expect((await post(handshake)).status).toBe(401);
    expect(
      (await post(handshake, { "content-type": "application/json", authorization: "Bearer nope" }))
        .status,
    ).toBe(401);
    expect(
      (await post(handshake, { "content-type": "application/json", authorization: "Bearer t0ken" }))
        .status,
    ).toBe(200);
  });

  it("R2: answers shutdown, tears the provider down, and refuses further requests with 503", async () => {
    const { provider, calls } = memoryProvider();
    const { post, server } = await serve(provider);
    expect(await post('{"type":"shutdown"}')).toEqual({ status: 200, body: { type: "shutdown" } });
    await server.shutdownRequested;
    expect(calls.shutdown).toBe(1);
    expect(await post(handshake)).toMatchObject({
      status: 503,
      body: { type: "error", code: "shutting_down" },
    });
  });

  it('R2 with onShutdown "acknowledge": answers shutdown and keeps serving other hosts', async () => {
    const { provider, calls } = memoryProvider();
    const { post, server } = await serve(provider, { onShutdown: "acknowledge" });
    expect(await post('{"type":"shutdown"}')).toEqual({ status: 200, body: { type: "shutdown" } });
    await server.shutdownRequested;
    expect(calls.shutdown).toBe(0);
    expect(await post(handshake)).toMatchObject({ status: 200, body: { type: "handshake_ack" } });
    expect((await post(queryBody("after"))).body).toMatchObject({ type: "frames" });
  });

  it("leaves the provider's signal alone while the client waits for the answer", async () => {
    const { provider, calls } = memoryProvider();
    const { post } = await serve(provider);
    expect((await post(queryBody("check-signal"))).status).toBe(200);
    expect(calls.aborted).toBe(0);
  });

  it("aborts the provider's query when the client goes away", async () => {
    const { provider, calls } = memoryProvider();
    const { url } = await serve(provider);
    const controller = new AbortController();
    const pending = request(url, {
      method: "POST",
      body: queryBody("slow"),
      headers: { "content-type": "application/json" },
      signal: controller.signal,
    }).catch((error: Error) => error);
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 250 && !done(); i += 1)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await until(() => calls.slow === 1);
    controller.abort();
    await until(() => calls.aborted === 1);
    expect(await pending).toBeInstanceOf(Error);
    expect(calls.aborted).toBe(1);
  });
});
