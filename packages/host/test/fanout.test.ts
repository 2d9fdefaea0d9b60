import { isOcpError, wireError } from "@ocp/types";
import { describe, expect, it } from "vitest";
import { Host, type HostEvents } from "../src/index.js";
import { runLeg } from "../src/internal.js";
import { parseQuery } from "../src/registry.js";
import { fakeProvider, frame, honestAnswer, never, QUERY } from "./helpers.js";

const TIMEOUT_MS = 500;

function quietHost() {
  const warnings: string[] = [];
  const host = new Host({ warn: (line) => warnings.push(line), legTimeoutMs: TIMEOUT_MS });
  return { host, warnings };
}

describe("queryAll fan-out", () => {
  it("B1: a provider cannot move the budget it is audited against by writing to its query, nor change what the other legs receive", async () => {
    const { host, warnings } = quietHost();
    const seen: unknown[] = [];
    const writes: string[] = [];
    const tamper = (query: Record<string, unknown> & { kinds: string[] }) => {
      for (const write of [
        () => {
          query.max_tokens = 1_000_000;
        },
        () => {
          query.goal = "tampered";
        },
        () => query.kinds.push("snippet"),
        () => {
          delete query.query_text;
        },
      ]) {
        try {
          write();
          writes.push("written");
        } catch (error) {
          writes.push((error as Error).name);
        }
      }
    };
    host.add(
      fakeProvider({
        id: "writer",
        answer: async (query) => {
          tamper(query as never);
          return {
            frames: [frame({ id: "w1", token_cost: 150 }), frame({ id: "w2", token_cost: 150 })],
            truncated: false,
          };
        },
      }),
    );
    host.add(
      fakeProvider({
        id: "after",
        answer: async (query) => {
          seen.push(structuredClone(query));
          return honestAnswer("after", query);
        },
      }),
    );
    const result = await host.queryAll(QUERY);
    // Every write to the query fails (it is frozen) and changes nothing.
    expect(writes).toEqual(["TypeError", "TypeError", "TypeError", "TypeError"]);
    expect(seen).toEqual([{ ...QUERY, anchors: [] }]);
    expect(result.query).toMatchObject({ goal: QUERY.goal, max_tokens: QUERY.max_tokens });
    expect(result.liars.map((l) => l.providerId)).toEqual(["writer"]);
    expect(result.liars[0]!.message).toContain(`300 tokens for max_tokens ${QUERY.max_tokens}`);
    expect(warnings.join("\n")).toContain('provider "writer" dropped (B1)');
    expect(result.accepted.map((a) => a.providerId)).toEqual(["after", "after"]);
    // The caller's own query object is its own: not frozen, unchanged.
    expect(Object.isFrozen(QUERY)).toBe(false);
    // A query with null members (the schema's path, not the plain form) is frozen too.
    writes.length = 0;
    const withNulls = { ...QUERY, query_text: null, embedding: null, as_of: null };
    const again = await host.queryAll(withNulls);
    expect(writes).toEqual(["TypeError", "TypeError", "TypeError", "TypeError"]);
    expect(again.liars.map((l) => l.providerId)).toEqual(["writer"]);
    expect(again.query).toMatchObject({ goal: QUERY.goal, max_tokens: QUERY.max_tokens });
    expect(seen[1]).toMatchObject({ goal: QUERY.goal, kinds: ["doc"], query_text: null });
  });

  it("B1: a provider that keeps its answer and changes it after the audit changes nothing the caller holds", async () => {
    const { host } = quietHost();
    let kept: { frames: ReturnType<typeof frame>[]; truncated: boolean } | undefined;
    host.add(
      fakeProvider({
        id: "keeper",
        answer: async () => {
          kept = {
            frames: [frame({ id: "k1", token_cost: 10, content: "audited" })],
            truncated: false,
          };
          return kept;
        },
      }),
    );
    const single = await host.queryProvider("keeper", QUERY);
    const all = await host.queryAll(QUERY);
    // After the audit: a frame over the budget added, the audited one rewritten.
    kept!.frames.push(frame({ id: "k2", token_cost: 100_000 }));
    kept!.frames[0]!.content = "rewritten";
    for (const frames of [single.frames, all.accepted.map((a) => a.frame)]) {
      expect(frames.map((f) => [f.id, f.content])).toEqual([["k1", "audited"]]);
    }
  });

  it("B1, B2, C2: over five providers (liar, crash, hang, unconsented egress, honest) the honest frames arrive and each other is reported with its reason, within the per-leg timeout", async () => {
    const { host, warnings } = quietHost();
    host.add(
      fakeProvider({
        id: "liar",
        answer: async () => ({
          frames: [frame({ id: "l1", token_cost: 150 }), frame({ id: "l2", token_cost: 150 })],
          truncated: false,
        }),
      }),
    );
    host.add(
      fakeProvider({
        id: "crash",
        answer: async () => {
          throw Object.assign(new Error("segfault"), { code: "provider_crashed" });
        },
      }),
    );
    host.add(fakeProvider({ id: "hang", answer: () => never() }));
    const egress = fakeProvider({ id: "egress", egress: true });
    host.add(egress);
    host.add(fakeProvider({ id: "honest" }));
    const finished: HostEvents["leg_finished"][] = [];
    host.on("leg_finished", (e) => finished.push(e));

    const started = performance.now();
    const result = await host.queryAll(QUERY);
    const elapsed = performance.now() - started;

    expect(result.accepted.map((a) => `${a.providerId}/${a.frame.id}`)).toEqual([
      "honest/honest-1",
      "honest/honest-2",
    ]);
    expect(result.failures.map((f) => [f.providerId, f.reason])).toEqual([
      ["crash", "crashed"],
      ["hang", "timeout"],
      ["egress", "consent_required"],
    ]);
    expect(result.liars).toHaveLength(1);
    expect(result.liars[0]!.providerId).toBe("liar");
    expect(result.liars[0]!.message).toContain("300 tokens for max_tokens 200");
    expect(warnings.join("\n")).toContain('provider "liar" dropped (B1)');
    expect(egress.received).toHaveLength(0);
    expect(finished).toHaveLength(5);
    expect(result.usage.find((u) => u.providerId === "honest")).toMatchObject({
      outcome: "ok",
      frames: 2,
      acceptedFrames: 2,
      tokens: 20,
    });
    expect(result.usage.find((u) => u.providerId === "liar")).toMatchObject({
      outcome: "dropped",
      frames: 2,
      acceptedFrames: 0,
      tokens: 300,
    });
    // Bounded by the per-leg timeout, not the sum of five legs.
    expect(elapsed).toBeLessThan(4 * TIMEOUT_MS);
  });

  it("F1, F2, F3: drops a provider that returns an invalid frame, naming the frame and the value", async () => {
    const { host } = quietHost();
    host.add(
      fakeProvider({
        id: "sloppy",
        answer: async () => ({
          frames: [
            frame({ id: "ok" }),
            frame({ id: "bad-score", score: 1.5 }),
            frame({ id: "no-title", title: "" }),
            frame({ id: "no-label", citation_label: "" }),
          ],
          truncated: false,
        }),
      }),
    );
    const result = await host.queryAll(QUERY);
    expect(result.accepted).toEqual([]);
    const rules = result.liars[0]!.violations.map((v) => `${v.rule}@${v.frameIndex}`);
    expect(rules).toEqual(["F1@1", "F2@2", "F3@3"]);
    expect(result.liars[0]!.message).toContain("score 1.5 is outside [0, 1]");
  });

  it("K1, M1: trims (never drops) a provider that returns a kind not asked for or more than max_frames, and reports it", async () => {
    const { host } = quietHost();
    host.add(
      fakeProvider({
        id: "wrong-kind",
        answer: async () => ({
          frames: [frame({ id: "s", kind: "snippet" }), frame({ id: "d" })],
          truncated: false,
        }),
      }),
    );
    host.add(
      fakeProvider({
        id: "too-many",
        answer: async () => ({
          frames: [1, 2, 3].map((i) => frame({ id: `f${i}`, token_cost: 1 })),
          truncated: false,
        }),
      }),
    );
    const result = await host.queryAll({ ...QUERY, max_frames: 2 });
    expect(result.liars).toEqual([]);
    expect(
      result.trimmed.map((t) => [t.providerId, t.violations.map((v) => v.rule), t.removed]),
    ).toEqual([
      ["wrong-kind", ["K1"], 1],
      ["too-many", ["M1"], 1],
    ]);
    expect(result.accepted.map((a) => `${a.providerId}:${a.frame.id}`)).toEqual([
      "wrong-kind:d",
      "too-many:f1",
      "too-many:f2",
    ]);
    expect(result.trimmed[0]!.message).toMatch(/^provider "wrong-kind" trimmed \(K1\)/);
  });

  it("T1: drops a provider whose declared token_cost understates the measured content", async () => {
    const { host } = quietHost();
    host.add(
      fakeProvider({
        id: "understates",
        answer: async () => ({
          frames: [frame({ id: "big", token_cost: 1, content: "word ".repeat(400) })],
          truncated: false,
        }),
      }),
    );
    const result = await host.queryAll(QUERY);
    const violation = result.liars[0]!.violations[0]!;
    expect(violation.rule).toBe("T1");
    expect(result.liars[0]!.message).toMatch(
      /declares token_cost 1 but its content counts \d+ o200k_base tokens/,
    );
  });

  it("H3: reports a provider that answers incompatible_version as incompatible", async () => {
    const { host } = quietHost();
    host.add(
      fakeProvider({
        id: "old",
        answer: async () => {
          throw wireError("incompatible_version", "speaks ocp/2.0");
        },
      }),
    );
    const result = await host.queryAll(QUERY);
    expect(result.failures.map((f) => [f.providerId, f.reason])).toEqual([["old", "incompatible"]]);
  });

  it("reports a provider answering with a malformed result as invalid_response", async () => {
    const { host } = quietHost();
    host.add(
      fakeProvider({
        id: "garbage",
        answer: async () => ({ frames: "nope" }) as never,
      }),
    );
    const result = await host.queryAll(QUERY);
    expect(result.failures.map((f) => [f.providerId, f.reason])).toEqual([
      ["garbage", "invalid_response"],
    ]);
  });

  it("reports a provider that throws synchronously or rejects with a plain error as provider_error", async () => {
    const { host } = quietHost();
    const sync = fakeProvider({ id: "sync" });
    host.add({
      ...sync,
      query: () => {
        throw new Error("sync throw");
      },
    });
    host.add(
      fakeProvider({
        id: "rejects",
        answer: async () => {
          throw new Error("bad day");
        },
      }),
    );
    const result = await host.queryAll(QUERY);
    expect(result.failures.map((f) => [f.providerId, f.reason])).toEqual([
      ["sync", "provider_error"],
      ["rejects", "provider_error"],
    ]);
    expect(result.failures[1]!.error.message).toContain("bad day");
  });

  it("asks only providers whose declared kinds match the query, and reports the rest as skipped", async () => {
    const { host } = quietHost();
    const docs = fakeProvider({ id: "docs", kinds: ["doc"] });
    const code = fakeProvider({ id: "code", kinds: ["symbol"] });
    const any = fakeProvider({ id: "any", kinds: [] });
    host.add(docs);
    host.add(code);
    host.add(any);
    const result = await host.queryAll(QUERY);
    expect(result.skipped).toEqual([
      { providerId: "code", reason: "kinds_not_served", declaredKinds: ["symbol"] },
    ]);
    expect(code.received).toHaveLength(0);
    expect(docs.received).toHaveLength(1);
    expect(any.received).toHaveLength(1);
  });

  it("aborts every leg when the caller's signal aborts, passing each provider its own signal", async () => {
    const { host } = quietHost();
    const signals: AbortSignal[] = [];
    for (const id of ["a", "b"]) {
      host.add(
        fakeProvider({
          id,
          answer: (_query, options) => {
            signals.push(options.signal!);
            return never();
          },
        }),
      );
    }
    const controller = new AbortController();
    const pending = host.queryAll(QUERY, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    expect(result.failures.map((f) => f.reason)).toEqual(["aborted", "aborted"]);
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it("a per-provider timeout overrides the host's and the leg's signal is aborted with a timeout error", async () => {
    const { host } = quietHost();
    let seen: AbortSignal | undefined;
    host.add(
      fakeProvider({
        id: "slow",
        answer: (_q, options) => {
          seen = options.signal;
          return never();
        },
      }),
      { timeoutMs: 50 },
    );
    host.add(fakeProvider({ id: "fast", answer: async (q) => honestAnswer("fast", q) }));
    const result = await host.queryAll(QUERY);
    expect(result.failures[0]).toMatchObject({ providerId: "slow", reason: "timeout" });
    expect(isOcpError(seen?.reason, "timeout")).toBe(true);
    expect(result.accepted).toHaveLength(2);
  });

  it("emits leg_started, consent_asked, frames_dropped and leg_finished so an app can show progress", async () => {
    const { host } = quietHost();
    host.add(fakeProvider({ id: "ok" }));
    host.add(fakeProvider({ id: "cloud", egress: true }));
    host.add(
      fakeProvider({
        id: "liar",
        answer: async () => ({ frames: [frame({ id: "x", token_cost: 999 })], truncated: false }),
      }),
    );
    const log: string[] = [];
    host.on("leg_started", (e) => log.push(`started ${e.providerId} ${e.timeoutMs}`));
    host.on("consent_asked", (e) => log.push(`consent_asked ${e.providerId}`));
    host.on("frames_dropped", (e) =>
      log.push(`dropped ${e.providerId} ${e.frames} ${e.rules.join(",")}`),
    );
    host.on("leg_finished", (e) =>
      log.push(`finished ${e.providerId} ${e.outcome} ${e.reason ?? ""}`.trim()),
    );
    await host.queryAll(QUERY);
    expect(log.filter((l) => l.startsWith("started")).sort()).toEqual([
      `started liar ${TIMEOUT_MS}`,
      `started ok ${TIMEOUT_MS}`,
    ]);
    expect(log).toContain("consent_asked cloud");
    expect(log).toContain("finished cloud failed consent_required");
    expect(log).toContain("dropped liar 1 B1");
    expect(log.indexOf("dropped liar 1 B1")).toBeLessThan(log.indexOf("finished liar dropped"));
    expect(log).toContain("finished ok ok");
  });
});

describe("runLeg with a finishing step", () => {
  it("settles with what finish returns, and rejects (never throws) with what it throws, on every path", async () => {
    const provider = fakeProvider({ id: "honest" });
    const query = parseQuery(QUERY);
    const options = { timeoutMs: TIMEOUT_MS };
    // Answered: finish maps the outcome.
    await expect(runLeg(provider, query, options, (outcome) => outcome.kind)).resolves.toBe("ok");
    const boom = (): never => {
      throw new Error("finish failed");
    };
    // Answered, finish throws: a rejection.
    await expect(runLeg(provider, query, options, boom)).rejects.toThrow("finish failed");
    // Aborted before it starts: still a promise, rejected with finish's error, nothing thrown.
    const controller = new AbortController();
    controller.abort();
    const aborted = runLeg(provider, query, { ...options, signal: controller.signal }, boom);
    await expect(aborted).rejects.toThrow("finish failed");
    // A provider whose query throws synchronously: the failure outcome reaches finish.
    const thrower = fakeProvider({ id: "thrower" });
    thrower.query = () => {
      throw new Error("sync throw");
    };
    const reasons = await runLeg(thrower, query, options, (outcome) =>
      outcome.kind === "failed" ? outcome.failure.reason : outcome.kind,
    );
    expect(reasons).toBe("provider_error");
    // Without finish, the outcome itself, as before.
    await expect(runLeg(provider, query, options)).resolves.toMatchObject({ kind: "ok" });
  });

  it("queryProvider rejects (never throws) when consent is missing or the signal has aborted", async () => {
    const { host } = quietHost();
    host.add(fakeProvider({ id: "remote", egress: true }));
    host.add(fakeProvider({ id: "local" }));
    const missing = host.queryProvider("remote", QUERY);
    await expect(missing).rejects.toMatchObject({ code: "consent_required" });
    const controller = new AbortController();
    controller.abort();
    const aborted = host.queryProvider("local", QUERY, { signal: controller.signal });
    await expect(aborted).rejects.toMatchObject({ code: "aborted" });
  });
});
