/** JetStream's reply to a publish, read by the pipelined publisher: acks and every kind of refusal. */
import { headers } from "@nats-io/transport-node";
import { OcpError } from "@ocp/types";
import { describe, expect, it } from "vitest";
import { parseJsAck, publishId } from "../../src/nats/js-publisher.js";

const reply = (text: string, code?: number) => ({
  data: new TextEncoder().encode(text),
  headers: code === undefined ? undefined : headers(code, "status"),
});

function refusal(value: unknown): OcpError {
  expect(value).toBeInstanceOf(OcpError);
  const error = value as OcpError;
  expect(error.code).toBe("store_failed");
  return error;
}

describe("parseJsAck", () => {
  it("reads an ack and a duplicate ack", () => {
    expect(parseJsAck(reply('{"stream":"S","seq":7}'))).toEqual({
      stream: "S",
      seq: 7,
      duplicate: false,
    });
    expect(parseJsAck(reply('{"stream":"S","seq":7,"duplicate":true}'))).toEqual({
      stream: "S",
      seq: 7,
      duplicate: true,
    });
  });

  it("refuses no responders (503), an empty reply, non-JSON and JSON that is no object", () => {
    expect(refusal(parseJsAck(reply("", 503))).message).toMatch(/no responders/);
    expect(refusal(parseJsAck(reply(""))).message).toMatch(/empty reply/);
    expect(refusal(parseJsAck(reply("{not json"))).message).toMatch(/other than JSON/);
    for (const text of ["null", "[]", "42", '"seq"']) {
      expect(refusal(parseJsAck(reply(text))).message).toMatch(/without stream and seq/);
    }
  });

  it("refuses an error reply with its description and code", () => {
    const error = refusal(
      parseJsAck(
        reply('{"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"}}'),
      ),
    );
    expect(error.message).toMatch(/maximum messages exceeded/);
    expect(error.details).toEqual({ errCode: 10077, status: 503 });
  });

  it("refuses an ack with a missing, zero, negative, fractional, unsafe or non-numeric seq", () => {
    for (const text of [
      '{"stream":"S","seq":0}',
      '{"stream":"S","seq":-1}',
      '{"stream":"S"}',
      '{"stream":"S","seq":1.5}',
      '{"stream":"S","seq":"7"}',
      '{"stream":"S","seq":1e300}',
      '{"seq":7}',
      '{"stream":7,"seq":7}',
    ]) {
      expect(refusal(parseJsAck(reply(text))).message).toMatch(/without stream and seq/);
    }
  });
});

describe("publishId", () => {
  const prefix = "_INBOX.abc.";
  it("reads the 1 to 15 digits after the prefix as the publish id", () => {
    expect(publishId(`${prefix}0`, prefix.length)).toBe(0);
    expect(publishId(`${prefix}42`, prefix.length)).toBe(42);
    expect(publishId(`${prefix}999999999999999`, prefix.length)).toBe(999_999_999_999_999);
  });

  it("answers -1 for an empty, too long, signed, fractional or non-decimal token", () => {
    for (const token of [
      "",
      "1234567890123456",
      "-1",
      "+1",
      "1.5",
      "1e3",
      "0x1f",
      "12a",
      " 1",
      "1 ",
    ]) {
      expect(publishId(`${prefix}${token}`, prefix.length)).toBe(-1);
    }
  });
});
