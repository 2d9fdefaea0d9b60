import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeLine } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import type { StdioProvider } from "../src/index.js";
import { eventually, fixture, isAlive, query, rejection, spawnFixture } from "./helpers.js";

const started: StdioProvider[] = [];
async function start(...args: Parameters<typeof spawnFixture>): Promise<StdioProvider> {
  const provider = await spawnFixture(...args);
  started.push(provider);
  return provider;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((provider) => provider.shutdown()));
});

describe("spawnStdioProvider against the reference transcript", () => {
  it("drives a scripted provider through the whole full-stdio-session exchange, byte for byte", async () => {
    const transcript = readFileSync(fixture("full-stdio-session.ndjson"), "utf8")
      .trim()
      .split("\n");
    const [, ack, queryLine, framesLine] = transcript.map((line) => {
      const decoded = decodeLine(line);
      if (!decoded.ok) throw decoded.error;
      return decoded.value;
    });
    const provider = await start("transcript-provider.mjs");
    if (
      ack?.type !== "handshake_ack" ||
      queryLine?.type !== "query" ||
      framesLine?.type !== "frames"
    ) {
      throw new Error("unexpected transcript");
    }
    expect(provider.protocolVersion).toBe("ocp/1.0-draft");
    expect(provider.info).toEqual(ack.provider);
    expect(provider.capabilities).toEqual(ack.capabilities);
    expect(provider.correlated).toBe(false);
    expect(await provider.query(queryLine.query)).toEqual(framesLine.result);
    await provider.shutdown();
    expect(await provider.exited).toEqual({ code: 0, signal: null });
    expect(provider.stderr()).toBe("");
  });
});

describe("spawnStdioProvider environment and diagnostics", () => {
  it("gives the child PATH, HOME, OCP_EXTENSIONS (what the host asks for) and the named variables only", async () => {
    process.env.OCP_TEST_SECRET = "must-not-leak";
    try {
      const provider = await start("env.mjs", [], { env: { NAMED: "yes" } });
      const result = await provider.query(query("env"));
      const env = JSON.parse(result.frames[0]!.content) as Record<string, string>;
      const expected = [
        "NAMED",
        "OCP_EXTENSIONS",
        "PATH",
        ...(process.env.HOME === undefined ? [] : ["HOME"]),
      ];
      expect(Object.keys(env).sort()).toEqual(expected.sort());
      expect(env.NAMED).toBe("yes");
      expect(env.OCP_EXTENSIONS).toBe("correlation,error_code");
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.OCP_TEST_SECRET).toBeUndefined();
    } finally {
      delete process.env.OCP_TEST_SECRET;
    }
  });

  it("captures the child's stderr, bounded to its latest bytes, apart from the protocol", async () => {
    const provider = await start("served.mjs", [], { maxStderrBytes: 64 });
    for (let i = 0; i < 5; i += 1) await provider.query(query("log"));
    expect(await eventually(() => provider.stderr().includes("a log line, on stderr"))).toBe(true);
    expect(Buffer.byteLength(provider.stderr())).toBeLessThanOrEqual(64);
  });

  it("fails with spawn_failed when the command cannot be started", async () => {
    const error = await rejection(spawnFixture("x", [], { command: "/nonexistent/ocp-provider" }));
    expect(error.code).toBe("spawn_failed");
  });
});

describe("spawnStdioProvider failures are typed errors", () => {
  it("H3: names a provider of another major family (ocp/2.0) incompatible_version, and kills it", async () => {
    const error = await rejection(spawnFixture("v2.mjs"));
    expect(error.code).toBe("incompatible_version");
    expect(error.details).toMatchObject({ ours: "ocp/1.0-draft", theirs: "ocp/2.0" });
  });

  it("H3: maps an incompatible_version error envelope answering the handshake to incompatible_version", async () => {
    const error = await rejection(spawnFixture("v2.mjs", ["--error"]));
    expect(error.code).toBe("incompatible_version");
    expect(error.details.code).toBe("incompatible_version");
  });

  it("times out a handshake that never comes (handshake timeout), and kills the child", async () => {
    const error = await rejection(
      spawnFixture("hang.mjs", ["--silent"], { handshakeTimeoutMs: 100 }),
    );
    expect(error.code).toBe("timeout");
  });

  it("times out a query a hanging provider never answers (query timeout)", async () => {
    const provider = await start("hang.mjs", [], { queryTimeoutMs: 100 });
    const error = await rejection(provider.query(query("anything")));
    expect(error.code).toBe("timeout");
    expect(error.details.timeoutMs).toBe(100);
  });

  it("a per-query timeoutMs replaces the configured query timeout, shorter or longer", async () => {
    const provider = await start("hang.mjs", [], { queryTimeoutMs: 60_000 });
    const started = performance.now();
    const error = await rejection(provider.query(query("anything"), { timeoutMs: 80 }));
    expect(error.code).toBe("timeout");
    expect(error.details.timeoutMs).toBe(80);
    expect(performance.now() - started).toBeLessThan(30_000);
    const short = await start("hang.mjs", [], { queryTimeoutMs: 50 });
    const longer = short.query(query("anything"), { timeoutMs: 400 });
    const first = await Promise.race([
      longer.then(
        () => "answered",
        () => "failed",
      ),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 200)),
    ]);
    expect(first).toBe("still waiting");
    expect((await rejection(longer)).details.timeoutMs).toBe(400);
  });

  it("refuses a timeoutMs that is not a positive integer with a RangeError naming it", async () => {
    const provider = await start("hang.mjs", [], { queryTimeoutMs: 100 });
    for (const timeoutMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(provider.query(query("anything"), { timeoutMs })).rejects.toThrow(
        /timeoutMs must be a positive integer/,
      );
    }
  });

  it("fails a query with provider_crashed when the child exits mid-query, with its stderr", async () => {
    const provider = await start("crash.mjs");
    const error = await rejection(provider.query(query("anything")));
    expect(error.code).toBe("provider_crashed");
    expect(error.details.exitCode).toBe(3);
    expect(error.details.stderr).toContain("crashing on purpose");
    const later = await rejection(provider.query(query("again")));
    expect(later.code).toBe("closed");
  });

  it("cuts off a child that writes 20 MiB without a newline with line_too_long at 16 MiB", async () => {
    const provider = await start("flood.mjs");
    const error = await rejection(provider.query(query("flood")));
    expect(error.code).toBe("line_too_long");
    expect(error.details.limit).toBe(16 * 1024 * 1024);
    expect(await eventually(() => !isAlive(provider.pid))).toBe(true);
  });

  it("accepts a reply line of exactly the default maximum, 16 MiB", async () => {
    const provider = await start("long-line.mjs", [], {
      env: { LINE_BYTES: String(16 * 1024 * 1024) },
    });
    const result = await provider.query(query("long"));
    expect(result.frames[0]!.content.length).toBeGreaterThan(16 * 1024 * 1024 - 200);
  });

  it("accepts a reply line of exactly an overridden maximum", async () => {
    const provider = await start("long-line.mjs", [], {
      env: { LINE_BYTES: "4096" },
      maxLineBytes: 4096,
    });
    const result = await provider.query(query("long"));
    expect(result.frames[0]!.content).toMatch(/^x{3800,}$/);
  });

  it("rejects a reply line one byte over the maximum with line_too_long", async () => {
    const provider = await start("long-line.mjs", [], {
      env: { LINE_BYTES: "4097" },
      maxLineBytes: 4096,
    });
    expect((await rejection(provider.query(query("long")))).code).toBe("line_too_long");
  });

  it("fails garbage, non-envelopes and unexpected envelopes with malformed_reply, error envelopes with provider_error, and goes on", async () => {
    const provider = await start("garbage.mjs");
    const notJson = await rejection(provider.query(query("1")));
    expect(notJson.code).toBe("malformed_reply");
    expect(notJson.details.reason).toBe("invalid_json");
    const notEnvelope = await rejection(provider.query(query("2")));
    expect(notEnvelope.code).toBe("malformed_reply");
    expect(notEnvelope.details.reason).toBe("invalid_envelope");
    expect((await rejection(provider.query(query("3")))).code).toBe("malformed_reply");
    const wireError = await rejection(provider.query(query("4")));
    expect(wireError.code).toBe("provider_error");
    expect(wireError.details).toEqual({
      code: "unsupported_kind",
      message: "unsupported frame kind: 'image'",
    });
    // Nested deeper than a call stack: refused as any other non-envelope, the host unharmed.
    const deep = await rejection(provider.query(query("5")));
    expect(deep.code).toBe("malformed_reply");
    expect(deep.details.reason).toBe("invalid_envelope");
    expect((await provider.query(query("6"))).frames[0]!.content).toBe("finally");
  });
});

describe("spawnStdioProvider correlation", () => {
  it("sends a plain provider one query at a time, in order, without ids", async () => {
    const provider = await start("plain-echo.mjs");
    const goals = ["a", "b", "c", "d"];
    const results = await Promise.all(goals.map((goal) => provider.query(query(goal))));
    const seen = results.map((result) => JSON.parse(result.frames[0]!.content));
    expect(seen.map((s) => s.goal)).toEqual(goals);
    for (const s of seen) {
      expect(s.hasId).toBe(false);
      expect(s.received).toBe(s.answered + 1);
    }
  });

  it("pipelines queries with ids to a provider that declares correlation, matching out-of-order replies", async () => {
    const provider = await start("served.mjs", ["--correlation"]);
    expect(provider.correlated).toBe(true);
    const goals = ["delay:150", "delay:100", "delay:50", "delay:0"];
    const results = await Promise.all(goals.map((goal) => provider.query(query(goal))));
    expect(results.map((result) => result.frames[0]!.title)).toEqual(goals);
  });

  it("cancels a waiting query on abort while the one before it is still on the wire", async () => {
    const provider = await start("plain-echo.mjs");
    const controller = new AbortController();
    const first = provider.query(query("first"));
    const second = provider.query(query("second"), { signal: controller.signal });
    controller.abort();
    expect((await rejection(second)).code).toBe("aborted");
    expect(JSON.parse((await first).frames[0]!.content).goal).toBe("first");
    const third = JSON.parse((await provider.query(query("third"))).frames[0]!.content);
    expect(third).toMatchObject({ goal: "third", received: 2 });
  });
});

describe("spawnStdioProvider shutdown", () => {
  it("R2: a served provider exits 0 on shutdown; further queries fail with closed", async () => {
    const provider = await start("served.mjs");
    await provider.shutdown();
    expect(await provider.exited).toEqual({ code: 0, signal: null });
    expect(provider.stderr()).toContain("shutdown called");
    expect((await rejection(provider.query(query("late")))).code).toBe("closed");
    await provider.shutdown();
  });

  it("kills the whole process group of a provider that ignores shutdown, grandchild included, after the grace", async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), "ocp-stdio-")), "grandchild.pid");
    const provider = await start("grandchild.mjs", [], {
      env: { PID_FILE: pidFile },
      shutdownGraceMs: 200,
    });
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(isAlive(grandchild)).toBe(true);
    await provider.shutdown();
    expect((await provider.exited).signal).toBe("SIGKILL");
    expect(await eventually(() => !isAlive(grandchild))).toBe(true);
    expect(isAlive(provider.pid)).toBe(false);
  });
});
