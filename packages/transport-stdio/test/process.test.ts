import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { killGroup, spawnInGroup, TailBuffer } from "../src/process.js";

describe("TailBuffer", () => {
  it("keeps only the latest bytes, whatever is written", () => {
    const tail = new TailBuffer(8);
    for (const part of ["aaaa", "bbbb", "cccc", "dd"]) tail.push(Buffer.from(part));
    expect(tail.toString()).toBe("bbccccdd");
    expect(tail.droppedBytes).toBe(6);
  });

  it("stays under twice its limit however much is written", () => {
    const tail = new TailBuffer(1024);
    for (let i = 0; i < 10_000; i++) tail.push(Buffer.from(`line ${i}\n`));
    expect(tail.droppedBytes).toBeGreaterThan(0);
    expect(tail.toString().endsWith("line 9999\n")).toBe(true);
    expect(Buffer.byteLength(tail.toString())).toBeLessThanOrEqual(1024);
  });
});

describe("spawnInGroup and killGroup", () => {
  it("start a child in its own group with only PATH, HOME and the named variables, and kill the group", async () => {
    const child = spawnInGroup({
      command: process.execPath,
      args: [
        "-e",
        "console.log(Object.keys(process.env).sort().join()); setInterval(() => {}, 1000)",
      ],
      env: { OCP_EXTRA: "1" },
    });
    const exited = once(child, "exit");
    const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    expect(line.split(",").filter((name) => !["HOME", "PATH"].includes(name))).toEqual([
      "OCP_EXTRA",
    ]);
    killGroup(child.pid!);
    expect(await exited).toEqual([null, "SIGKILL"]);
    expect(() => killGroup(child.pid!)).not.toThrow();
  });
});
