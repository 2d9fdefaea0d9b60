import { describe, expect, it } from "vitest";
import { LineSplitter, MAX_LINE_BYTES } from "../src/index.js";

function collect(maxLineBytes?: number) {
  const lines: string[] = [];
  const overflows: { limit: unknown; received: unknown }[] = [];
  const splitter = new LineSplitter({
    maxLineBytes,
    onLine: (line) => lines.push(line),
    onOverflow: (error) => {
      expect(error.code).toBe("line_too_long");
      overflows.push({ limit: error.details.limit, received: error.details.received });
    },
  });
  return { splitter, lines, overflows };
}

describe("LineSplitter", () => {
  it("defaults the maximum line to 16 MiB", () => {
    expect(MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
    expect(collect().splitter.maxLineBytes).toBe(MAX_LINE_BYTES);
  });

  it("splits on \\n, joins lines that span chunks and skips blank lines", () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('{"a":1}\n{"b"'));
    splitter.push(Buffer.from(":2}\n\n\r\n"));
    splitter.push(Buffer.from('{"c":3}\r\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}\r']);
    expect(splitter.bufferedBytes).toBe(0);
  });

  it("decodes a multi-byte character split across two chunks", () => {
    const { splitter, lines } = collect();
    const bytes = Buffer.from('"é€"\n');
    splitter.push(bytes.subarray(0, 2));
    splitter.push(bytes.subarray(2, 5));
    splitter.push(bytes.subarray(5));
    expect(lines).toEqual(['"é€"']);
  });

  it("accepts a line of exactly the maximum, newline excluded", () => {
    const { splitter, lines, overflows } = collect(8);
    splitter.push(Buffer.from("1234"));
    splitter.push(Buffer.from("5678\n"));
    expect(lines).toEqual(["12345678"]);
    expect(overflows).toEqual([]);
  });

  it("cuts a line off as soon as it passes the maximum, before its newline arrives", () => {
    const { splitter, lines, overflows } = collect(8);
    splitter.push(Buffer.from("12345"));
    expect(overflows).toEqual([]);
    splitter.push(Buffer.from("6789"));
    expect(overflows).toEqual([{ limit: 8, received: 9 }]);
    expect(splitter.bufferedBytes).toBe(0);
    splitter.push(Buffer.from("more of the same line without end"));
    expect(splitter.bufferedBytes).toBe(0);
    expect(overflows).toHaveLength(1);
    expect(lines).toEqual([]);
  });

  it("rejects a complete line one byte over the maximum and resumes after its newline", () => {
    const { splitter, lines, overflows } = collect(8);
    splitter.push(Buffer.from("123456789\nok\n"));
    expect(overflows).toEqual([{ limit: 8, received: 9 }]);
    expect(lines).toEqual(["ok"]);
  });

  it("resumes after the newline of a line cut off earlier", () => {
    const { splitter, lines } = collect(4);
    splitter.push(Buffer.from("toolong"));
    splitter.push(Buffer.from("still\nnext\n"));
    expect(lines).toEqual(["next"]);
  });

  it("refuses a limit of 0 or a non-integer: no limit means unlimited", () => {
    expect(() => collect(0)).toThrow(RangeError);
    expect(() => collect(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
