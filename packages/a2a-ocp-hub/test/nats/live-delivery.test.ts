/** What a hub makes of a message on an agent's live subject: durable with its sequence, or transient bytes. */
import { headers } from "@nats-io/transport-node";
import { describe, expect, it } from "vitest";
import { digitsOf, liveDelivery } from "../../src/nats/live-delivery.js";

const text = '{"id":"m-1"}';
function msg(entries: Array<[string, string]> | undefined) {
  const data = new TextEncoder().encode(text);
  let h: ReturnType<typeof headers> | undefined;
  if (entries !== undefined) {
    h = headers();
    for (const [k, v] of entries) h.set(k, v);
  }
  return { headers: h, data, string: () => new TextDecoder().decode(data) };
}

describe("liveDelivery", () => {
  it("is durable with the stream's Nats-Sequence, the exact text, and when it was published", () => {
    const d = liveDelivery(
      msg([
        ["Nats-Sequence", "42"],
        ["Ocp-Published-At", "1733390000000"],
        ["Nats-Stream", "OCP_ws_IN_x"],
      ]),
    );
    expect(d).toMatchObject({ kind: "durable", seq: 42, raw: text });
    expect(d.kind === "durable" && d.trace?.publishedAt).toBe(1733390000000);
    expect(d.kind === "durable" && d.trace?.traceparent).toBeUndefined();
  });

  it("reads Ocp-Seq (a hub of an older release) only when the stream set no sequence", () => {
    expect(liveDelivery(msg([["Ocp-Seq", "7"]]))).toEqual({ kind: "durable", seq: 7, raw: text });
    // A republished sequence that is not digits is not overridden by Ocp-Seq: not a durable delivery.
    const odd = liveDelivery(
      msg([
        ["Nats-Sequence", "7x"],
        ["Ocp-Seq", "7"],
      ]),
    );
    expect(odd.kind).toBe("transient");
  });

  it("carries the trace context when the publishing hub traced the commit", () => {
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const d = liveDelivery(
      msg([
        ["Nats-Sequence", "3"],
        ["Ocp-Published-At", "1"],
        ["traceparent", traceparent],
      ]),
    );
    expect(d.kind === "durable" && d.trace).toMatchObject({ publishedAt: 1, traceparent });
  });

  it("drops a malformed publication time instead of recording a bogus hop", () => {
    for (const publishedAt of ["", "-1", "1.5", "12345678901234567", "now"]) {
      const d = liveDelivery(
        msg([
          ["Nats-Sequence", "3"],
          ["Ocp-Published-At", publishedAt],
        ]),
      );
      expect(d).toEqual({ kind: "durable", seq: 3, raw: text });
    }
  });

  it("is transient, the bytes copied, without a sequence or without headers", () => {
    for (const entries of [undefined, [["Ocp-From", "a2a://x"]] as Array<[string, string]>]) {
      const m = msg(entries);
      const d = liveDelivery(m);
      expect(d.kind).toBe("transient");
      if (d.kind !== "transient") return;
      expect(d.bytes.toString("utf8")).toBe(text);
      m.data[0] = 0;
      expect(d.bytes.toString("utf8")).toBe(text);
    }
  });
});

describe("digitsOf", () => {
  it("reads 1 to 16 decimal digits and nothing else", () => {
    expect(digitsOf("0")).toBe(0);
    expect(digitsOf("1234567890123456")).toBe(1234567890123456);
    for (const bad of [
      "",
      "12345678901234567",
      "-1",
      "+1",
      "1.0",
      "1e3",
      " 1",
      "1 ",
      "٣",
      "0x10",
    ]) {
      expect(digitsOf(bad)).toBeUndefined();
    }
  });
});
