import { describe, expect, it } from "vitest";
import { LineSplitter } from "../src/index.js";
import { MAX_LINE_BYTES } from "../src/internal.js";

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

  it("splits any chunking of a stream as it splits the stream fed byte by byte (seeded, 3000 streams)", () => {
    // A small seeded generator (xorshift): the same streams on every run.
    let seed = 0x2545f491;
    const next = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const pieces = ['{"a":1}', "é", "€", "🙂", "\r", "", "x".repeat(7), "y".repeat(9), "\uFFFD"];
    for (let run = 0; run < 3000; run += 1) {
      const max = 4 + next(12);
      let text = "";
      for (let i = next(12); i > 0; i -= 1) {
        for (let j = next(4); j > 0; j -= 1) text += pieces[next(pieces.length)];
        text += "\n";
      }
      let bytes = Buffer.from(text);
      // Now and then a stray continuation byte or a sequence cut by a newline.
      if (next(4) === 0) bytes = Buffer.concat([bytes, Buffer.from([0xe2, 0x0a, 0x80, 0x0a])]);
      const reference = collect(max);
      for (let i = 0; i < bytes.length; i += 1) reference.splitter.push(bytes.subarray(i, i + 1));
      const chunked = collect(max);
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + next(bytes.length);
        chunked.splitter.push(bytes.subarray(at, at + size));
        at += size;
      }
      expect(chunked.lines).toEqual(reference.lines);
      expect(chunked.overflows.length).toBe(reference.overflows.length);
      expect(chunked.splitter.bufferedBytes).toBe(reference.splitter.bufferedBytes);
    }
  });
});
