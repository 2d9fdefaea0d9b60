/**
 * Issue 43: a provider that dies names its reason. The `provider_crashed`
 * message quotes the child's last meaningful stderr line (not a stack frame,
 * not Node's version line), cut at MAX_CRASH_REASON_CHARS and with control
 * characters escaped, so a child cannot write to the user's terminal through
 * it. Real child processes.
 */
import { describe, expect, it } from "vitest";
import { crashReason } from "../src/crash-reason.js";
import { MAX_CRASH_REASON_CHARS } from "../src/internal.js";
import { rejection, spawnFixture } from "./helpers.js";

const dies = (stderr: string) =>
  rejection(spawnFixture("dies-with-reason.mjs", [JSON.stringify(stderr)]));

describe("a crashed child's reason in provider_crashed", () => {
  it("names the last line a child wrote to stderr before exiting 1 during the handshake", async () => {
    const error = await dies("starting\nindexing failed: Disallowed special token found\n");
    expect(error.code).toBe("provider_crashed");
    expect(error.message).toBe(
      'provider "dies-with-reason" exited (code 1): indexing failed: Disallowed special token found',
    );
    expect(error.details.exitCode).toBe(1);
  });

  it("skips the stack frames and Node's version line of an uncaught error", async () => {
    const stack = [
      "file:///provider/cli.js:3",
      "Error: Disallowed special token found: <|im_start|>",
      "    at assertNoSpecialTokens (file:///x.js:1:1)",
      "    at main (file:///provider/cli.js:3:9)",
      "",
      "Node.js v22.12.0",
      "",
    ].join("\n");
    const error = await dies(stack);
    expect(error.message).toMatch(/: Error: Disallowed special token found: <\|im_start\|>$/);
  });

  it("escapes terminal escapes and bidi overrides, and bounds the line", async () => {
    const error = await dies("\u001b[2J\u001b[31mforged\u0007 accepted\u202e\n");
    expect(error.message).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(error.message).toContain("\\u001b[2J\\u001b[31mforged\\u0007 accepted\\u202e");
    const long = await dies(`${"x".repeat(10_000)}\n`);
    expect(long.message.endsWith(`${"x".repeat(MAX_CRASH_REASON_CHARS)}…`)).toBe(true);
    expect(long.message.length).toBeLessThan(MAX_CRASH_REASON_CHARS + 100);
  });

  it("says nothing more when the child wrote nothing", async () => {
    const error = await dies("");
    expect(error.message).toBe('provider "dies-with-reason" exited (code 1)');
    expect(crashReason("\n    at x (y.js:1:1)\n")).toBeUndefined();
  });
});
