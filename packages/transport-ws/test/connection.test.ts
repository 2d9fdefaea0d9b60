import { describe, expect, it } from "vitest";
import { encodeControl } from "../src/control.js";
import { decodeRecords, encodeRecords } from "../src/framing.js";
import { CONTROL_TYPES, type Connection } from "../src/index.js";
import {
  closeOf,
  connectionPairs,
  makeAgent,
  next,
  nextJson,
  nextText,
  reading,
  within,
} from "./helpers.js";

const { pair } = connectionPairs(makeAgent("alice"));

describe("binary framing (§6.3)", () => {
  it("W-F3: each record of a client's binary frame arrives as its own raw message", async () => {
    const { ws, connection } = await pair();
    const texts = ['{"n":1}', '{ "n" : 2 }', '{"n":"ü"}'];
    const got: [string, boolean][] = [];
    const all = new Promise<void>((resolve) =>
      connection.on("message", (raw, meta) => {
        got.push([raw, meta.binary]);
        if (got.length === texts.length) resolve();
      }),
    );
    const [frame] = encodeRecords(texts, connection.limits);
    ws.send(frame!, { binary: true });
    await within(all);
    expect(got).toEqual(texts.map((t) => [t, true]));
  });

  it("W-F3: sendBatch puts several records in one binary frame", async () => {
    const { ws, connection } = await pair();
    const texts = Array.from({ length: 5 }, (_, i) => JSON.stringify({ i }));
    const frame = next<[Buffer, boolean]>(ws, "message");
    expect(connection.sendBatch(texts)).toBe("sent");
    const [data, isBinary] = await frame;
    expect(isBinary).toBe(true);
    const decoded = decodeRecords(data, connection.limits);
    expect(decoded.ok && decoded.records.map(String)).toEqual(texts);
  });

  it("W-F4: a truncated record closes with 4000, an invalid UTF-8 record with 1007", async () => {
    const first = await pair();
    const [frame] = encodeRecords(['{"a":1}'], first.connection.limits);
    const truncated = closeOf(first.ws);
    first.ws.send(frame!.subarray(0, frame!.length - 1), { binary: true });
    expect((await truncated).code).toBe(4000);
    expect(await first.connection.closed).toMatchObject({ error: { code: "invalid_record" } });

    const second = await pair();
    const [bad] = encodeRecords([Buffer.from([0x22, 0xc3, 0x28, 0x22])], second.connection.limits);
    const invalid = closeOf(second.ws);
    second.ws.send(bad!, { binary: true });
    expect((await invalid).code).toBe(1007);
  });

  it("W-F4: a binary frame with more than maxBatchRecords records closes with 4000", async () => {
    const { ws, connection } = await pair({ maxBatchRecords: 2 });
    const frame = Buffer.concat(
      encodeRecords(["1", "2", "3"], { maxPayloadBytes: 1024, maxBatchRecords: 3 }),
    );
    const closed = closeOf(ws);
    ws.send(frame, { binary: true });
    expect((await closed).code).toBe(4000);
    expect(await connection.closed).toMatchObject({ error: { code: "too_many_records" } });
  });
});

describe("graceful disconnect (§6.4)", () => {
  it("W-L8: close flushes queued messages, sends a disconnect notice, then closes with the code", async () => {
    const { ws, connection } = await pair();
    for (const n of [1, 2, 3]) connection.send(JSON.stringify({ n }));
    const closed = closeOf(ws);
    connection.close(1000, "bye");
    expect(connection.send("{}")).toBe("closed");
    const texts = [await nextText(ws), await nextText(ws), await nextText(ws), await nextJson(ws)];
    expect(texts.slice(0, 3)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(texts[3]).toMatchObject({
      type: CONTROL_TYPES.DISCONNECT,
      payload: { code: 1000, reason: "bye" },
    });
    expect(await closed).toEqual({ code: 1000, reason: "bye" });
    expect(await connection.closed).toMatchObject({ code: 1000, initiator: "local" });
  });

  it("W-L9: a peer's disconnect notice is reported, and with the close that follows", async () => {
    const { ws, connection } = await pair();
    const notice = next(connection, "disconnecting");
    ws.send(encodeControl(CONTROL_TYPES.DISCONNECT, { code: 1001, reason: "agent leaving" }));
    ws.close(1001, "agent leaving");
    expect(await notice).toEqual([{ code: 1001, reason: "agent leaving" }]);
    expect(await connection.closed).toEqual({
      code: 1001,
      reason: "agent leaving",
      initiator: "remote",
      notice: { code: 1001, reason: "agent leaving" },
    });
  });

  it("W-L11: a notice with no code or reason (as the specification shows it) is accepted, and a peer that never closes is closed after disconnectGraceMs", async () => {
    const { ws, connection } = await pair({ disconnectGraceMs: 100 });
    const notice = next(connection, "disconnecting");
    const closed = closeOf(ws);
    const sent = Date.now();
    ws.send(
      JSON.stringify({
        protocol: "a2a+ocp",
        version: "1.0.0",
        type: CONTROL_TYPES.DISCONNECT,
        payload: {},
      }),
    );
    expect(await notice).toEqual([{ code: 1000, reason: "" }]);
    expect(await closed).toEqual({ code: 1000, reason: "peer disconnected" });
    expect(Date.now() - sent).toBeGreaterThanOrEqual(90);
    expect(await connection.closed).toMatchObject({
      code: 1000,
      initiator: "local",
      notice: { code: 1000, reason: "" },
    });
  });

  it("W-L10: a handshake control message after registration closes with 4000", async () => {
    const { ws, connection } = await pair();
    const closed = closeOf(ws);
    ws.send(encodeControl(CONTROL_TYPES.REGISTERED, { agentId: "a2a://me" }));
    expect(await closed).toMatchObject({ code: 4000 });
    expect((await connection.closed).error?.code).toBe("protocol_error");
  });
});

describe("heartbeats", () => {
  it("W-H1: a peer that stops answering pings is closed with 4004", async () => {
    const { ws, connection } = await pair({
      heartbeatIntervalMs: 20,
      heartbeatTimeoutMs: 40,
      closeTimeoutMs: 50,
    });
    reading(ws, false);
    const info: Awaited<Connection["closed"]> = await within(
      connection.closed,
      5_000,
      "heartbeat close",
    );
    expect(info).toMatchObject({
      code: 4004,
      initiator: "local",
      error: { code: "heartbeat_timeout" },
    });
  });

  it("W-H2: a peer that answers pings stays connected across many heartbeats", async () => {
    const { ws, connection } = await pair({ heartbeatIntervalMs: 10, heartbeatTimeoutMs: 200 });
    let pings = 0;
    await new Promise<void>((resolve) => {
      ws.on("ping", () => {
        pings += 1;
        if (pings === 10) resolve();
      });
    });
    expect(connection.state).toBe("open");
  });
});
