import { isOcpError } from "@ocp/types";
import { describe, expect, it } from "vitest";
import { ConsentStore, Host, type HostEvents } from "../src/index.js";
import { fakeProvider, frame, never, QUERY } from "./helpers.js";

function quietHost(options: ConstructorParameters<typeof Host>[0] = {}) {
  const warnings: string[] = [];
  const host = new Host({ warn: (line) => warnings.push(line), ...options });
  return { host, warnings };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("Host registry", () => {
  it("lists providers with their declared info, capabilities and consent state", () => {
    const { host } = quietHost();
    host.add(fakeProvider({ id: "local" }));
    host.add(fakeProvider({ id: "cloud", egress: true }));
    const listed = host.list();
    expect(listed.map((p) => [p.id, p.transport, p.egress, p.consent])).toEqual([
      ["local", "in-process", false, "not_needed"],
      ["cloud", "in-process", true, "required"],
    ]);
    expect(listed[0]!.info.name).toBe("local-provider");
    expect(listed[0]!.capabilities.query.kinds).toEqual(["doc", "snippet"]);
    expect(listed[1]!.whatLeaves).toContain("may leave this machine");
  });

  it("refuses a duplicate id, an unknown id and more than maxProviders", () => {
    const { host } = quietHost({ maxProviders: 2 });
    host.add(fakeProvider({ id: "a" }));
    expect(() => host.add(fakeProvider({ id: "a" }))).toThrow(
      expect.objectContaining({ code: "duplicate_provider" }),
    );
    host.add(fakeProvider({ id: "b" }));
    expect(() => host.add(fakeProvider({ id: "c" }))).toThrow(
      expect.objectContaining({ code: "too_many_providers" }),
    );
    expect(() => host.get("zzz")).toThrow(expect.objectContaining({ code: "unknown_provider" }));
  });

  it("H2: refuses a provider whose declared name is empty", () => {
    const { host } = quietHost();
    const provider = {
      ...fakeProvider({ id: "nameless" }),
      info: { name: "", version: "1", data_flow: { reads: false, writes: false, egress: false } },
    };
    expect(() => host.add(provider)).toThrow(expect.objectContaining({ code: "invalid_provider" }));
  });

  it("H3: refuses a provider of another major protocol family", () => {
    const { host } = quietHost();
    expect(() => host.add(fakeProvider({ id: "future", protocolVersion: "ocp/2.0" }))).toThrow(
      expect.objectContaining({ code: "incompatible_version" }),
    );
    expect(
      host.add(fakeProvider({ id: "minor", protocolVersion: "ocp/1.7" })).protocolVersion,
    ).toBe("ocp/1.7");
  });

  it("refuses a limit of 0 rather than reading it as unlimited", () => {
    expect(() => new Host({ legTimeoutMs: 0 })).toThrow(
      expect.objectContaining({ code: "invalid_option" }),
    );
  });

  it("queryProvider fails by its promise, never by a throw, and reports a leg before it settles", async () => {
    const { host } = quietHost({ legTimeoutMs: 1_000 });
    const provider = fakeProvider({ id: "a" });
    host.add(provider);
    const finished: string[] = [];
    host.on("leg_finished", (event) => finished.push(`${event.providerId}:${event.outcome}`));
    const calls = {
      unknown: () => host.queryProvider("zzz", QUERY),
      invalidQuery: () => host.queryProvider("a", { goal: "g", max_frames: -1, max_tokens: 10 }),
      invalidTimeout: () => host.queryProvider("a", QUERY, { timeoutMs: 0 }),
    };
    const codes: Record<string, unknown> = {};
    for (const [name, call] of Object.entries(calls)) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = call();
      }).not.toThrow();
      codes[name] = ((await rejection(pending!)) as { code?: unknown }).code;
    }
    expect(codes).toEqual({
      unknown: "unknown_provider",
      invalidQuery: "invalid_query",
      invalidTimeout: "invalid_option",
    });
    expect(provider.received).toHaveLength(0);
    const result = await host.queryProvider("a", QUERY);
    // The leg was reported (events) by the time its result is seen.
    expect(finished).toEqual(["a:ok"]);
    expect(result.frames.map((f) => f.id)).toEqual(["a-1", "a-2"]);
    await host.shutdown();
    const closed = host.queryProvider("a", QUERY);
    expect(((await rejection(closed)) as { code?: unknown }).code).toBe("host_shut_down");
  });

  it("refuses an invalid query before any provider is asked", async () => {
    const { host } = quietHost();
    const provider = fakeProvider({ id: "a" });
    host.add(provider);
    const error = await rejection(host.queryAll({ goal: "g", max_frames: -1, max_tokens: 10 }));
    expect(isOcpError(error, "invalid_query")).toBe(true);
    expect(provider.received).toHaveLength(0);
  });
});

describe("Host consent gate", () => {
  it("C1, C2: never auto-enables an egress provider and transmits nothing before consent", async () => {
    const { host } = quietHost();
    const cloud = fakeProvider({ id: "cloud", egress: true });
    host.add(cloud);
    const asked: HostEvents["consent_asked"][] = [];
    host.on("consent_asked", (event) => asked.push(event));
    const error = await rejection(host.queryProvider("cloud", QUERY));
    expect(isOcpError(error, "consent_required")).toBe(true);
    expect(cloud.received).toHaveLength(0);
    expect(asked).toEqual([
      expect.objectContaining({ providerId: "cloud", name: "cloud-provider" }),
    ]);
  });

  it("C1, C2: queries an egress provider after consent and stops again after revocation", async () => {
    const { host } = quietHost();
    const cloud = fakeProvider({ id: "cloud", egress: true });
    host.add(cloud);
    const receipt = await host.grantConsent("cloud", { grantedBy: "alice" });
    expect(receipt).toMatchObject({
      op: "grant",
      provider: "cloud",
      name: "cloud-provider",
      granted_by: "alice",
    });
    expect(receipt.what_leaves).toContain("query payload");
    expect(host.get("cloud").consent).toBe("granted");
    const result = await host.queryProvider("cloud", QUERY);
    expect(result.frames).toHaveLength(2);
    expect(cloud.received).toHaveLength(1);

    await host.revokeConsent("cloud", { revokedBy: "alice" });
    const error = await rejection(host.queryProvider("cloud", QUERY));
    expect(isOcpError(error, "consent_required")).toBe(true);
    expect(cloud.received).toHaveLength(1);
  });

  it("C1: a different provider registered under a consented id is not consented", async () => {
    const consent = ConsentStore.inMemory();
    const first = quietHost({ consent }).host;
    first.add(fakeProvider({ id: "cloud", name: "trusted-search", egress: true }));
    await first.grantConsent("cloud", { grantedBy: "alice" });
    const second = quietHost({ consent }).host;
    const impostor = fakeProvider({ id: "cloud", name: "sneaky-uploader", egress: true });
    second.add(impostor);
    expect(second.get("cloud").consent).toBe("required");
    const error = await rejection(second.queryProvider("cloud", QUERY));
    expect(isOcpError(error, "consent_required")).toBe(true);
    expect(impostor.received).toHaveLength(0);
  });

  it("C4: a provider registered over HTTP is egress even when it declares egress: false", async () => {
    const { host } = quietHost();
    const remote = fakeProvider({ id: "remote", egress: false });
    const listing = host.register(remote, "http", { endpoint: "http://127.0.0.1:9/ocp" });
    expect(listing).toMatchObject({ egress: true, consent: "required", transport: "http" });
    expect(listing.whatLeaves).toContain("http://127.0.0.1:9/ocp");
    const error = await rejection(host.queryProvider("remote", QUERY));
    expect(isOcpError(error, "consent_required")).toBe(true);
    expect(remote.received).toHaveLength(0);
  });

  it("queries a non-egress provider without consent", async () => {
    const { host } = quietHost();
    host.add(fakeProvider({ id: "local" }));
    expect((await host.queryProvider("local", QUERY)).frames).toHaveLength(2);
  });

  it("B2: queryProvider never returns the frames of a provider that breaks B1", async () => {
    const { host, warnings } = quietHost();
    host.add(
      fakeProvider({
        id: "liar",
        answer: async () => ({
          frames: [frame({ id: "x", token_cost: 500 })],
          truncated: false,
        }),
      }),
    );
    const error = await rejection(host.queryProvider("liar", QUERY));
    expect(isOcpError(error, "provider_violation")).toBe(true);
    expect((error as Error).message).toMatch(/"liar".*B1.*500.*max_tokens 200/);
    expect(warnings.join("\n")).toContain("liar");
  });
});

describe("Host lifecycle", () => {
  it("shutdown tears every provider down and reports stragglers", async () => {
    const { host, warnings } = quietHost();
    const good = fakeProvider({ id: "good" });
    host.add(good);
    host.add(fakeProvider({ id: "stuck", shutdown: () => never() }));
    host.add(
      fakeProvider({
        id: "broken",
        shutdown: async () => {
          throw new Error("boom");
        },
      }),
    );
    const report = await host.shutdown({ timeoutMs: 100 });
    expect(report.stopped).toEqual(["good"]);
    expect(report.stragglers.map((s) => [s.providerId, s.reason]).sort()).toEqual([
      ["broken", "error"],
      ["stuck", "timeout"],
    ]);
    expect(good.shutdowns).toBe(1);
    expect(warnings.some((w) => w.includes("stuck"))).toBe(true);
    expect(host.list()).toEqual([]);
    expect(() => host.add(fakeProvider({ id: "late" }))).toThrow(
      expect.objectContaining({ code: "host_shut_down" }),
    );
    expect(await host.shutdown()).toEqual({ stopped: [], stragglers: [] });
  });

  it("remove shuts one provider down and forgets it", async () => {
    const { host } = quietHost();
    const a = fakeProvider({ id: "a" });
    host.add(a);
    const removed: string[] = [];
    host.on("provider_removed", (e) => removed.push(e.providerId));
    await host.remove("a");
    expect(a.shutdowns).toBe(1);
    expect(removed).toEqual(["a"]);
    expect(host.list()).toEqual([]);
  });

  it("emits provider_added, and a throwing listener never breaks the host", async () => {
    const { host, warnings } = quietHost();
    const added: string[] = [];
    host.on("provider_added", (e) => added.push(e.providerId));
    const off = host.on("leg_finished", () => {
      throw new Error("listener bug");
    });
    host.add(fakeProvider({ id: "a" }));
    expect((await host.queryProvider("a", QUERY)).frames).toHaveLength(2);
    off();
    expect(added).toEqual(["a"]);
    expect(warnings.some((w) => w.includes("listener bug"))).toBe(true);
  });
});
