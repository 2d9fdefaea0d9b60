import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { inspect } from "node:util";
import { decodeLine } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { connectHttpProvider, createHttpProviderServer } from "../src/index.js";
import {
  ACK,
  type BareServer,
  bareServer,
  json,
  memoryProvider,
  query,
  rejection,
} from "./helpers.js";

const servers: { close(): Promise<void> }[] = [];
async function bare(...args: Parameters<typeof bareServer>): Promise<BareServer> {
  const server = await bareServer(...args);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A bare server that acks the handshake and answers every query with `onQuery`. */
function acking(onQuery: Parameters<typeof bareServer>[0]): Promise<BareServer> {
  return bare((body, request, response) => {
    if (JSON.parse(body).type === "handshake") json(response, 200, ACK);
    else onQuery(body, request, response);
  });
}

describe("connectHttpProvider against the reference transcript", () => {
  it("drives a scripted HTTP provider through the whole full-stdio-session exchange, byte for byte (C4)", async () => {
    const script = readFileSync(
      new URL("./fixtures/full-stdio-session.ndjson", import.meta.url),
      "utf8",
    )
      .trim()
      .split("\n");
    let at = 0;
    const server = await bare((body, _request, response) => {
      const expected = script[at++];
      if (body !== expected)
        return json(response, 400, {
          type: "error",
          code: "bad_request",
          message: `expected ${expected}`,
        });
      if (JSON.parse(body).type === "shutdown") return json(response, 200, body);
      json(response, 200, script[at++]!);
    });
    const [, ack, queryLine, frames] = script.map((line) => {
      const decoded = decodeLine(line);
      if (!decoded.ok) throw decoded.error;
      return decoded.value;
    });
    if (ack?.type !== "handshake_ack" || queryLine?.type !== "query" || frames?.type !== "frames")
      throw new Error("transcript");
    const provider = await connectHttpProvider({ id: "repo-graph", url: server.url });
    expect(provider.declaredInfo).toEqual(ack.provider);
    expect(provider.info.data_flow).toEqual({ ...ack.provider.data_flow, egress: true });
    expect(provider.capabilities).toEqual(ack.capabilities);
    expect(await provider.query(queryLine.query)).toEqual(frames.result);
    await provider.shutdown();
    expect(at).toBe(script.length);
    expect(server.bodies).toEqual([script[0], script[2], script[4]]);
  });
});

describe("connectHttpProvider security", () => {
  it("C4: treats a provider that declares no egress as egress, keeping the declaration apart", async () => {
    const served = createHttpProviderServer(memoryProvider({ egress: false }).provider);
    servers.push(served);
    const provider = await connectHttpProvider({ id: "mem", url: await served.listen() });
    expect(provider.declaredInfo.data_flow.egress).toBe(false);
    expect(provider.info.data_flow.egress).toBe(true);
    await provider.shutdown();
  });

  it("refuses a plain-http URL off loopback with insecure_url before any byte leaves", async () => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry !== undefined && entry.family === "IPv4" && !entry.internal)?.address;
    const server = await bare((_body, _request, response) => json(response, 200, ACK), "0.0.0.0");
    const port = new URL(server.url).port;
    const target = `http://${address ?? "192.0.2.1"}:${port}/ocp`;
    const error = await rejection(
      connectHttpProvider({ id: "far", url: target, token: "s3cret-token" }),
    );
    expect(error.code).toBe("insecure_url");
    expect(server.connections()).toBe(0);
    expect(error.message).not.toContain("s3cret-token");
  });

  it("refuses URLs with credentials or another scheme with invalid_url", async () => {
    expect(
      (await rejection(connectHttpProvider({ id: "x", url: "https://user:pw@example.org/" }))).code,
    ).toBe("invalid_url");
    expect((await rejection(connectHttpProvider({ id: "x", url: "ftp://127.0.0.1/" }))).code).toBe(
      "invalid_url",
    );
    expect((await rejection(connectHttpProvider({ id: "x", url: "not a url" }))).code).toBe(
      "invalid_url",
    );
  });

  it("sends the bearer token, and maps a refused one to unauthorized", async () => {
    const served = createHttpProviderServer(memoryProvider().provider, { token: "right-token" });
    servers.push(served);
    const url = await served.listen();
    expect((await rejection(connectHttpProvider({ id: "m", url }))).code).toBe("unauthorized");
    const wrong = await rejection(connectHttpProvider({ id: "m", url, token: "wrong-token" }));
    expect(wrong.code).toBe("unauthorized");
    expect(wrong.details.status).toBe(401);
    const provider = await connectHttpProvider({ id: "m", url, token: "right-token" });
    expect((await provider.query(query("ok"))).frames).toHaveLength(1);
    await provider.shutdown();
  });

  it("refuses a token that could forge headers, without echoing it", async () => {
    const token = "abc\r\nx-forged: 1";
    const error = await rejection(
      connectHttpProvider({ id: "p", url: "http://127.0.0.1:1/", token }),
    );
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).not.toContain("forged");
  });

  it("never shows the bearer token in an error message, error details or inspect output", async () => {
    const token = "tok-4f1d9c-never-print-me";
    const server = await acking((_body, _request, response) =>
      json(response, 500, "<h1>boom</h1>"),
    );
    const provider = await connectHttpProvider({ id: "p", url: server.url, token });
    const failures = [
      await rejection(provider.query(query("x"))),
      await rejection(connectHttpProvider({ id: "p", url: "http://127.0.0.1:1/", token })),
      await rejection(connectHttpProvider({ id: "p", url: "http://203.0.113.9/", token })),
    ];
    for (const error of failures) {
      expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(token);
      expect(JSON.stringify(error.details)).not.toContain(token);
    }
    expect(inspect(provider, { depth: 10, showHidden: true })).not.toContain(token);
    await provider.shutdown();
  });
});

describe("connectHttpProvider failures are typed errors", () => {
  it("H3: names an ocp/2.0 provider incompatible_version", async () => {
    const server = await bare((_body, _request, response) =>
      json(response, 200, { ...ACK, protocol_version: "ocp/2.0" }),
    );
    const error = await rejection(connectHttpProvider({ id: "v2", url: server.url }));
    expect(error.code).toBe("incompatible_version");
    expect(error.details).toMatchObject({ theirs: "ocp/2.0" });
  });

  it("H3: maps an incompatible_version error answering the handshake to incompatible_version", async () => {
    const served = createHttpProviderServer({
      ...memoryProvider().provider,
      protocolVersion: "ocp/2.0",
    });
    servers.push(served);
    const error = await rejection(connectHttpProvider({ id: "v2", url: await served.listen() }));
    expect(error.code).toBe("incompatible_version");
    expect(error.details.code).toBe("incompatible_version");
  });

  it("maps a 500 to http_status with the status and the wire code of its error envelope", async () => {
    const server = await acking((_body, _request, response) =>
      json(response, 500, { type: "error", code: "unavailable", message: "index rebuilding" }),
    );
    const provider = await connectHttpProvider({ id: "p", url: server.url });
    const error = await rejection(provider.query(query("x")));
    expect(error.code).toBe("http_status");
    expect(error.details).toMatchObject({
      status: 500,
      code: "unavailable",
      message: "index rebuilding",
    });
    await provider.shutdown();
  });

  it("maps an HTML page to malformed_reply, and to http_status when its status is not 2xx", async () => {
    let status = 200;
    const server = await acking((_body, _request, response) => {
      response.writeHead(status, { "content-type": "text/html" });
      response.end("<html><body>Gateway says hi</body></html>");
    });
    const provider = await connectHttpProvider({ id: "p", url: server.url });
    const page = await rejection(provider.query(query("x")));
    expect(page.code).toBe("malformed_reply");
    expect(page.details).toMatchObject({
      reason: "not JSON",
      body: "<html><body>Gateway says hi</body></html>",
    });
    status = 502;
    const gateway = await rejection(provider.query(query("x")));
    expect(gateway.code).toBe("http_status");
    expect(gateway.details.status).toBe(502);
    await provider.shutdown();
  });

  it("maps an empty body to malformed_reply and JSON that is no envelope to malformed_reply", async () => {
    let reply = "";
    const server = await acking((_body, _request, response) => json(response, 200, reply));
    const provider = await connectHttpProvider({ id: "p", url: server.url });
    expect((await rejection(provider.query(query("x")))).details.reason).toBe("empty body");
    reply = '{"type":"frames","result":{"frames":"no"}}';
    expect((await rejection(provider.query(query("x")))).details.reason).toBe("not an envelope");
    // Nested far deeper than a call stack: the same, the host unharmed.
    reply = `{"type":"frames","result":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    expect((await rejection(provider.query(query("x")))).details.reason).toBe("not an envelope");
    await provider.shutdown();
  });

  it("maps a connection closed without any answer to connection_failed", async () => {
    const server = await acking((_body, request) => request.socket.destroy());
    const provider = await connectHttpProvider({ id: "p", url: server.url });
    expect((await rejection(provider.query(query("x")))).code).toBe("connection_failed");
    await provider.shutdown();
  });

  it("maps nobody listening to connection_failed", async () => {
    expect(
      (await rejection(connectHttpProvider({ id: "p", url: "http://127.0.0.1:1/" }))).code,
    ).toBe("connection_failed");
  });

  it("times out a provider that never answers (per-request timeout)", async () => {
    const server = await acking(() => {});
    const provider = await connectHttpProvider({ id: "p", url: server.url, requestTimeoutMs: 100 });
    const error = await rejection(provider.query(query("x")));
    expect(error.code).toBe("timeout");
    expect(error.details.timeoutMs).toBe(100);
    await provider.shutdown();
  });

  it("cancels a query on abort", async () => {
    const server = await acking(() => {});
    const provider = await connectHttpProvider({ id: "p", url: server.url, requestTimeoutMs: 100 });
    const controller = new AbortController();
    const pending = provider.query(query("x"), { signal: controller.signal });
    controller.abort(new Error("user cancelled"));
    const error = await rejection(pending);
    expect(error.code).toBe("aborted");
    expect((error.cause as Error).message).toBe("user cancelled");
    await provider.shutdown();
  });

  it("stops reading a body over the maximum with body_too_large", async () => {
    const server = await acking((_body, _request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"pad":"${"x".repeat(5000)}"}`);
    });
    const provider = await connectHttpProvider({ id: "p", url: server.url, maxBodyBytes: 4096 });
    const error = await rejection(provider.query(query("x")));
    expect(error.code).toBe("body_too_large");
    expect(error.details.limit).toBe(4096);
    await provider.shutdown();
  });

  it("maps an error envelope answering a query to provider_error with its wire code", async () => {
    const served = createHttpProviderServer(memoryProvider().provider);
    servers.push(served);
    const provider = await connectHttpProvider({ id: "m", url: await served.listen() });
    const error = await rejection(provider.query(query("fail")));
    expect(error.code).toBe("provider_error");
    expect(error.details).toEqual({ code: "budget_unsatisfiable", message: "cannot fit" });
    await provider.shutdown();
  });
});

describe("connectHttpProvider connections and shutdown", () => {
  it("keeps connections alive: once warm, sequential queries open no new connection", async () => {
    const server = await acking((_body, _request, response) =>
      json(response, 200, { type: "frames", result: { frames: [], truncated: false } }),
    );
    const provider = await connectHttpProvider({ id: "p", url: server.url });
    await provider.query(query("warm-up"));
    const warm = server.connections();
    for (let i = 0; i < 20; i += 1) await provider.query(query(`q${i}`));
    expect(server.connections()).toBe(warm);
    expect(warm).toBeLessThanOrEqual(2);
    await provider.shutdown();
  });

  it("R2: shutdown tells the server, which tears the provider down; later queries fail with closed", async () => {
    const { provider: served, calls } = memoryProvider();
    const server = createHttpProviderServer(served);
    servers.push(server);
    const provider = await connectHttpProvider({ id: "m", url: await server.listen() });
    await provider.shutdown();
    await server.shutdownRequested;
    expect(calls.shutdown).toBe(1);
    expect((await rejection(provider.query(query("late")))).code).toBe("closed");
    await provider.shutdown();
  });
});
