import { describe, expect, it } from "vitest";
import {
  encodeDeliver,
  encodeTracedDeliver,
  encodeTracedSend,
  formatTraceparent,
  parseDeliver,
  parseTracedDeliver,
  parseTracedSend,
  parseTraceparent,
  TRACEPARENT_MAX_CHARS,
} from "../src/internal.js";

const TP = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const RAW = '{"protocol":"a2a+ocp","id":"m1","payload":{"text":"a \\"quoted\\" }"}}';

describe("traceparent", () => {
  it("reads a version-00 traceparent and writes it back identically", () => {
    const parsed = parseTraceparent(TP);
    expect(parsed).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
    });
    expect(formatTraceparent(parsed!)).toBe(TP);
  });

  it("ignores malformed values: zero ids, version ff, uppercase, extra fields on 00, too long", () => {
    for (const bad of [
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      TP.toUpperCase(),
      `${TP}-extra`,
      "not a traceparent",
      `01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-${"a".repeat(TRACEPARENT_MAX_CHARS)}`,
    ]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
  });

  it("reads a later version by its first four fields", () => {
    expect(parseTraceparent(`cc-${TP.slice(3)}-what-the-future-adds`)?.spanId).toBe(
      "00f067aa0ba902b7",
    );
  });
});

describe("ocp.hub.send", () => {
  it("carries the exact message text and its trace context", () => {
    const frame = encodeTracedSend(TP, RAW);
    expect(parseTracedSend(frame)).toEqual({ raw: RAW, traceparent: parseTraceparent(TP) });
    expect(JSON.parse(frame).message).toEqual(JSON.parse(RAW));
  });

  it("keeps the message and drops a bogus trace context", () => {
    expect(parseTracedSend(encodeTracedSend("00-nonsense", RAW))).toEqual({
      raw: RAW,
      traceparent: undefined,
    });
  });

  it("names TRACEPARENT_MAX_CHARS when the traceparent is oversized, without reading the rest", () => {
    const frame = encodeTracedSend("0".repeat(TRACEPARENT_MAX_CHARS + 1), RAW);
    const parsed = parseTracedSend(frame);
    expect(parsed).toHaveProperty("invalid");
    expect((parsed as { invalid: string }).invalid).toContain("TRACEPARENT_MAX_CHARS");
    expect(parseTracedSend(frame.slice(0, 100))).toHaveProperty("invalid");
  });

  it("refuses escapes, a missing message and a message that is not an object", () => {
    const escaped = `{"protocol":"a2a+ocp","type":"ocp.hub.send","traceparent":"a\\"b","message":${RAW}}`;
    expect(parseTracedSend(escaped)).toHaveProperty("invalid");
    expect(
      parseTracedSend(`{"protocol":"a2a+ocp","type":"ocp.hub.send","traceparent":"${TP}"}`),
    ).toHaveProperty("invalid");
    expect(parseTracedSend(encodeTracedSend(TP, "[1]"))).toHaveProperty("invalid");
    expect(parseTracedSend(RAW)).toBeUndefined();
  });
});

describe("traced ocp.hub.deliver", () => {
  it("splits seq, message and trace context; an untraced frame reads as before", () => {
    const traced = encodeTracedDeliver(7, TP, RAW);
    expect(parseTracedDeliver(traced)).toEqual({
      seq: 7,
      raw: RAW,
      traceparent: parseTraceparent(TP),
    });
    expect(parseTracedDeliver(encodeDeliver(7, RAW))).toEqual({
      seq: 7,
      raw: RAW,
      traceparent: undefined,
    });
    expect(JSON.parse(traced)).toMatchObject({ seq: 7, traceparent: TP });
  });

  it("is never read as an untraced delivery by the old parser (only agents that asked get it)", () => {
    expect(parseDeliver(encodeTracedDeliver(7, TP, RAW))).toBeUndefined();
  });

  it("ignores a bogus trace context and refuses a broken head", () => {
    const bogus = encodeTracedDeliver(3, "00-zz", RAW);
    expect(parseTracedDeliver(bogus)).toEqual({ seq: 3, raw: RAW, traceparent: undefined });
    const broken = bogus.replace('"seq":3', '"seq":x3');
    expect(parseTracedDeliver(broken)).toBeUndefined();
  });
});
