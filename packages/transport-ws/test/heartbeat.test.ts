import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Heartbeat } from "../src/heartbeat.js";

describe("Heartbeat", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function make() {
    const calls = { pings: 0, timeouts: 0 };
    const heartbeat = new Heartbeat({
      intervalMs: 100,
      timeoutMs: 50,
      ping: () => {
        calls.pings += 1;
      },
      onTimeout: () => {
        calls.timeouts += 1;
      },
    });
    return { heartbeat, calls };
  }

  it("pings once per interval", () => {
    const { heartbeat, calls } = make();
    heartbeat.start();
    vi.advanceTimersByTime(100);
    expect(calls.pings).toBe(1);
    heartbeat.touch();
    vi.advanceTimersByTime(100);
    expect(calls.pings).toBe(2);
    heartbeat.stop();
  });

  it("declares the peer dead once when no sign of life follows a ping", () => {
    const { heartbeat, calls } = make();
    heartbeat.start();
    vi.advanceTimersByTime(100);
    expect(heartbeat.awaiting).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(calls.timeouts).toBe(1);
  });

  it("a sign of life after a ping keeps the peer alive", () => {
    const { heartbeat, calls } = make();
    heartbeat.start();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(100);
      heartbeat.touch();
    }
    expect(calls).toEqual({ pings: 10, timeouts: 0 });
    heartbeat.stop();
  });

  it("a stopped heartbeat neither pings nor times out, and does not restart", () => {
    const { heartbeat, calls } = make();
    heartbeat.start();
    vi.advanceTimersByTime(100);
    heartbeat.stop();
    heartbeat.start();
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual({ pings: 1, timeouts: 0 });
  });
});
