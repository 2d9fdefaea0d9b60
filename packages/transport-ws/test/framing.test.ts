import { describe, expect, it } from "vitest";
import { decodeRecords, encodeRecords, RECORD_HEADER_BYTES, recordText } from "../src/framing.js";

const limits = { maxPayloadBytes: 64, maxBatchRecords: 3 };

function frame(...records: Buffer[]): Buffer {
  return Buffer.concat(
    records.flatMap((record) => {
      const header = Buffer.alloc(RECORD_HEADER_BYTES);
      header.writeUInt32BE(record.length, 0);
      return [header, record];
    }),
  );
}

describe("encodeRecords", () => {
  it("W-F1: writes [4-byte big-endian length][bytes] records, several per frame", () => {
    const [only, ...rest] = encodeRecords(['{"a":1}', Buffer.from('{"b":2}')], limits);
    expect(rest).toEqual([]);
    expect(only!.readUInt32BE(0)).toBe(7);
    expect(only!.subarray(4, 11).toString()).toBe('{"a":1}');
    expect(only!.readUInt32BE(11)).toBe(7);
    expect(only!.subarray(15).toString()).toBe('{"b":2}');
  });

  it("W-F2: starts a new frame before one would exceed maxPayloadBytes", () => {
    const message = "x".repeat(26);
    const frames = encodeRecords([message, message, message], limits);
    expect(frames.map((f) => f.length)).toEqual([60, 30]);
    expect(frames.every((f) => f.length <= limits.maxPayloadBytes)).toBe(true);
  });

  it("W-F2: starts a new frame after maxBatchRecords records", () => {
    const frames = encodeRecords(["1", "2", "3", "4", "5"], limits);
    expect(frames.map((f) => decodeRecords(f, limits))).toMatchObject([
      { ok: true, records: [Buffer.from("1"), Buffer.from("2"), Buffer.from("3")] },
      { ok: true, records: [Buffer.from("4"), Buffer.from("5")] },
    ]);
  });

  it("throws payload_too_large for a record that cannot fit in any frame", () => {
    expect(() => encodeRecords(["y".repeat(61)], limits)).toThrow(
      expect.objectContaining({ code: "payload_too_large" }),
    );
  });

  it("throws invalid_record for an empty message", () => {
    expect(() => encodeRecords([""], limits)).toThrow(
      expect.objectContaining({ code: "invalid_record" }),
    );
  });
});

describe("decodeRecords", () => {
  it("W-F1: returns the exact bytes of each record, in order", () => {
    const texts = ['{ "spaced" : true }', '{"z":1,"a":2}', '"é ✓"'];
    const result = decodeRecords(frame(...texts.map((t) => Buffer.from(t))), limits);
    expect(result.ok && result.records.map((r) => r.toString())).toEqual(texts);
  });

  it("refuses a truncated length prefix", () => {
    const result = decodeRecords(
      Buffer.concat([frame(Buffer.from("ab")), Buffer.from([0, 0])]),
      limits,
    );
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_record" } });
  });

  it("refuses a record shorter than its declared length", () => {
    const bad = frame(Buffer.from("abcdef")).subarray(0, 8);
    expect(decodeRecords(bad, limits)).toMatchObject({
      ok: false,
      error: { code: "invalid_record" },
    });
  });

  it("refuses a declared length larger than the frame without reading past it", () => {
    const bad = Buffer.alloc(8);
    bad.writeUInt32BE(0xffffffff, 0);
    expect(decodeRecords(bad, limits)).toMatchObject({
      ok: false,
      error: { code: "invalid_record", details: { declared: 0xffffffff } },
    });
  });

  it("refuses an empty record and an empty frame", () => {
    expect(decodeRecords(Buffer.alloc(4), limits)).toMatchObject({
      ok: false,
      error: { code: "invalid_record" },
    });
    expect(decodeRecords(Buffer.alloc(0), limits)).toMatchObject({
      ok: false,
      error: { code: "invalid_record" },
    });
  });

  it("refuses more than maxBatchRecords records", () => {
    const four = frame(...["1", "2", "3", "4"].map((t) => Buffer.from(t)));
    expect(decodeRecords(four, limits)).toMatchObject({
      ok: false,
      error: { code: "too_many_records", details: { closeCode: 4000 } },
    });
  });

  it("refuses a frame longer than maxPayloadBytes with close code 1009", () => {
    expect(decodeRecords(frame(Buffer.alloc(61, 0x61)), limits)).toMatchObject({
      ok: false,
      error: { code: "payload_too_large", details: { closeCode: 1009 } },
    });
  });
});

describe("recordText", () => {
  it("decodes valid UTF-8 and refuses invalid UTF-8 instead of replacing it", () => {
    expect(recordText(Buffer.from('"✓"'))).toEqual({ ok: true, text: '"✓"' });
    expect(recordText(Buffer.from([0x22, 0xff, 0x22]))).toMatchObject({
      ok: false,
      error: { code: "invalid_utf8", details: { closeCode: 1007 } },
    });
  });
});
