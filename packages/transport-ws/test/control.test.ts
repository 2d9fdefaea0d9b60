import { describe, expect, it } from "vitest";
import { CONTROL_TYPES } from "../src/constants.js";
import { classify, encodeControl } from "../src/control.js";

describe("classify", () => {
  it("passes an application message through without parsing it", () => {
    expect(classify('{"type":"ocp.knowledge.stream", not even json')).toEqual({
      kind: "application",
    });
  });

  it("treats an application message that merely mentions the reserved prefix as application", () => {
    const raw = JSON.stringify({
      type: "ocp.event.publish",
      payload: { note: "ocp.connection.ack" },
    });
    expect(classify(raw)).toEqual({ kind: "application" });
  });

  it("recognises each control message it encodes", () => {
    const ack = encodeControl(CONTROL_TYPES.ACK, {
      nonce: "n".repeat(43),
      serverTime: new Date(0).toISOString(),
      limits: {
        maxPayloadBytes: 1,
        maxBatchRecords: 1,
        heartbeatIntervalMs: 1,
        heartbeatTimeoutMs: 1,
        handshakeTimeoutMs: 1,
      },
    });
    expect(classify(ack)).toMatchObject({
      kind: "control",
      message: { type: "ocp.connection.ack" },
    });
    const messages = [
      encodeControl(CONTROL_TYPES.REGISTERED, { agentId: "a2a://x" }),
      encodeControl(CONTROL_TYPES.REFUSED, { reason: "no", code: 4001 }),
      encodeControl(CONTROL_TYPES.DISCONNECT, { reason: "bye", code: 1000 }),
    ];
    expect(messages.map((m) => classify(m).kind)).toEqual(["control", "control", "control"]);
  });

  it("writes control messages in the a2a+ocp shape of §7.2", () => {
    expect(
      JSON.parse(encodeControl(CONTROL_TYPES.DISCONNECT, { reason: "bye", code: 1000 })),
    ).toEqual({
      protocol: "a2a+ocp",
      version: "1.0.0",
      type: "ocp.connection.disconnect",
      payload: { reason: "bye", code: 1000 },
    });
  });

  it("reports a known control type with a wrong shape as malformed", () => {
    const raw = JSON.stringify({
      protocol: "a2a+ocp",
      version: "1.0.0",
      type: "ocp.connection.ack",
      payload: {},
    });
    expect(classify(raw)).toMatchObject({ kind: "malformed_control", type: "ocp.connection.ack" });
  });

  it("reports an unknown type in the reserved namespace as unknown (dropped, forward-compatible)", () => {
    const raw = JSON.stringify({ protocol: "a2a+ocp", type: "ocp.connection.future", payload: {} });
    expect(classify(raw)).toEqual({ kind: "unknown_control", type: "ocp.connection.future" });
  });
});
