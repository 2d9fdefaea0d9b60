import { describe, expect, it } from "vitest";
import { LINES_PER_WRITE } from "../src/limits.js";
import { LineBatch } from "../src/line-batch.js";

describe("LineBatch", () => {
  it("writes the lines of one run of promise jobs together, after the jobs queued before them", async () => {
    const writes: string[] = [];
    const batch = new LineBatch((text) => writes.push(text));
    batch.push("a\n");
    batch.push("b\n");
    expect(writes).toEqual([]);
    await Promise.resolve(); // the flush job runs after jobs queued earlier, before this await resumes
    expect(writes).toEqual(["a\nb\n"]);
    batch.flush(); // nothing waits: no empty write
    expect(writes).toEqual(["a\nb\n"]);
  });

  it(`writes at once when ${LINES_PER_WRITE} lines wait, the rest after the jobs; nothing lost or reordered`, async () => {
    const writes: string[] = [];
    const batch = new LineBatch((text) => writes.push(text));
    const lines = Array.from({ length: 2 * LINES_PER_WRITE + 3 }, (_, i) => `${i}\n`);
    for (const line of lines) batch.push(line);
    expect(writes.length).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((w) => w.split("\n").length - 1)).toEqual([
      LINES_PER_WRITE,
      LINES_PER_WRITE,
      3,
    ]);
    expect(writes.join("")).toBe(lines.join(""));
  });
});
