import { describe, expect, it } from "vitest";
import { connectNats } from "../../src/nats/connect.js";

describe("connectNats ping options", () => {
  it("refuses a ping interval or outstanding-ping limit out of range with invalid_option, before dialling", async () => {
    // Nothing listens on port 1: a dial would fail with a connection error, not invalid_option.
    const servers = "nats://127.0.0.1:1";
    for (const bad of [
      { pingIntervalMs: 10 },
      { pingIntervalMs: 1.5 },
      { pingIntervalMs: 10_000_000 },
      { maxPingsOut: 0 },
      { maxPingsOut: 1000 },
    ]) {
      await expect(connectNats({ servers, ...bad })).rejects.toMatchObject({
        code: "invalid_option",
      });
    }
  });
});
