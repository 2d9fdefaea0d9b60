import { afterEach, describe, expect, it } from "vitest";
import type { StdioProvider } from "../src/index.js";
import {
  EXIT_DRAIN_MS,
  HANDSHAKE_TIMEOUT_MS,
  MAX_IN_FLIGHT,
  MAX_LINE_BYTES,
  MAX_STDERR_BYTES,
  QUERY_TIMEOUT_MS,
  SHUTDOWN_GRACE_MS,
} from "../src/internal.js";
import { query, rejection, spawnFixture } from "./helpers.js";

const started: StdioProvider[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((provider) => provider.shutdown()));
});

describe("limits", () => {
  it("every limit has a finite, positive default", () => {
    expect({
      MAX_LINE_BYTES,
      HANDSHAKE_TIMEOUT_MS,
      QUERY_TIMEOUT_MS,
      SHUTDOWN_GRACE_MS,
      MAX_STDERR_BYTES,
      MAX_IN_FLIGHT,
      EXIT_DRAIN_MS,
    }).toEqual({
      MAX_LINE_BYTES: 16 * 1024 * 1024,
      HANDSHAKE_TIMEOUT_MS: 10_000,
      QUERY_TIMEOUT_MS: 30_000,
      SHUTDOWN_GRACE_MS: 2_000,
      MAX_STDERR_BYTES: 64 * 1024,
      MAX_IN_FLIGHT: 64,
      EXIT_DRAIN_MS: 250,
    });
  });

  it("refuses 0 as a limit: 0 never means unlimited", async () => {
    for (const option of [
      "maxLineBytes",
      "handshakeTimeoutMs",
      "queryTimeoutMs",
      "shutdownGraceMs",
      "maxStderrBytes",
      "maxInFlight",
    ]) {
      const error = await rejection(spawnFixture("hang.mjs", [], { [option]: 0 }));
      expect(error).toBeInstanceOf(RangeError);
    }
  });

  it("keeps at most maxInFlight pipelined queries on the wire, and exactly that many when more wait", async () => {
    const provider = await spawnFixture("inflight.mjs", [], { maxInFlight: 3 });
    started.push(provider);
    expect(provider.correlated).toBe(true);
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) => provider.query(query(`q${i}`))),
    );
    const seen = results.map((result) => Number(result.frames[0]!.content));
    expect(Math.max(...seen)).toBe(3);
  });
});
