import { describe, expect, it } from "vitest";
import {
  CgpStrictEnvelopeSchema,
  canonicalTokenCost,
  cgpAnswerViolations,
  cgpFrameViolations,
  sha256Digest,
} from "../src/cgp/index.js";
import type { ContextFrame } from "../src/frame.js";
import {
  CgpResponder,
  cgpAnswer,
  checkDeclarations,
  type DualProvider,
  defineProvider,
  encodeCgp,
  refuseCgpQuery,
} from "../src/kit.js";

function frame(id: string, content: string, extra: Record<string, unknown> = {}): ContextFrame {
  return {
    id,
    kind: "doc",
    title: id,
    content,
    score: 0.5,
    // A BPE-style count: what an ocp/1 provider declares, never a B3 cost.
    token_cost: 1,
    citation_label: `${id} L1`,
    provenance: [],
    relations: [],
    ...extra,
  } as ContextFrame;
}

function provider(overrides: Partial<DualProvider> = {}): DualProvider {
  return {
    id: "p",
    info: { name: "p", version: "1.0.0", data_flow: { reads: true, writes: false, egress: false } },
    capabilities: {
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
      correlation: true,
    },
    async query() {
      return { frames: [frame("a", "alpha ".repeat(10))], truncated: false };
    },
    async shutdown() {},
    ...overrides,
  };
}

const QUERY = { goal: "g", kinds: [], anchors: [], max_frames: 8, max_tokens: 1000 };

describe("the kit under contextgraph/1 (cgpAnswer)", () => {
  it("B3/D1: an ocp/1 frame is costed ceil(utf8 bytes / 4) and digested, and keeps every CGP frame rule", () => {
    const declared = checkDeclarations(provider());
    const content = "héllo wörld, ünïcode costs bytes";
    const out = cgpAnswer(QUERY, { frames: [frame("a", content)], truncated: false }, declared);
    expect(out.frames[0]?.token_cost).toBe(canonicalTokenCost(content));
    expect(out.frames[0]?.content_digest).toBe(sha256Digest(content));
    expect(cgpAnswerViolations(QUERY, out.frames)).toEqual([]);
    expect(
      CgpStrictEnvelopeSchema.safeParse(JSON.parse(encodeCgp({ type: "frames", result: out })))
        .success,
    ).toBe(true);
  });

  it("B4: more frames than max_frames are selected down, each kept whole (content and digest untouched)", () => {
    const declared = checkDeclarations(provider());
    const frames = ["one", "two", "three", "four"].map((id) => frame(id, `${id} body`));
    const out = cgpAnswer({ ...QUERY, max_frames: 2 }, { frames, truncated: false }, declared);
    expect(out.frames.map((f) => f.id)).toEqual(["one", "two"]);
    expect(out.frames[1]?.content).toBe("two body");
    expect(out).toMatchObject({ truncated: true, dropped_estimate: 2 });
  });

  it("B1: frames are left out whole to fit max_tokens, never cut (cost recomputed after any cut would be needed)", () => {
    const declared = checkDeclarations(provider());
    const big = frame("big", "x".repeat(400)); // 100 budget tokens
    const small = frame("small", "y".repeat(40)); // 10
    const out = cgpAnswer(
      { ...QUERY, max_tokens: 50 },
      { frames: [big, small], truncated: false },
      declared,
    );
    expect(out.frames.map((f) => [f.id, f.content?.length, f.token_cost])).toEqual([
      ["small", 40, 10],
    ]);
    expect(cgpAnswerViolations({ ...QUERY, max_tokens: 50 }, out.frames)).toEqual([]);
  });

  it("as_of: a frame valid only after the pinned instant, or no longer valid at it, is not served", () => {
    const declared = checkDeclarations(provider());
    const frames = [
      frame("later", "l", { valid_from: "2026-08-01T00:00:00Z" }),
      frame("ended", "e", { valid_from: "2025-01-01T00:00:00Z", valid_to: "2026-01-01T00:00:00Z" }),
      frame("then", "t", { valid_from: "2026-06-30T23:59:59.5Z" }),
    ];
    const out = cgpAnswer(
      { ...QUERY, as_of: "2026-07-01T00:00:00Z" },
      { frames, truncated: false },
      declared,
    );
    expect(out.frames.map((f) => f.id)).toEqual(["then"]);
  });

  it("F4: a parseable timestamp with an offset is rewritten in UTC; an unparseable one leaves the frame out", () => {
    const declared = checkDeclarations(provider());
    const warnings: string[] = [];
    const frames = [
      frame("offset", "o", { recorded_at: "2026-07-01T02:00:00+02:00" }),
      frame("garbage", "g", { recorded_at: "yesterday-ish" }),
    ];
    const out = cgpAnswer(QUERY, { frames, truncated: false }, declared, {
      warn: (m) => warnings.push(m),
    });
    expect(out.frames.map((f) => [f.id, f.recorded_at])).toEqual([
      ["offset", "2026-07-01T00:00:00.000Z"],
    ]);
    expect(warnings.join("\n")).toMatch(/F4: .*garbage.*left out/);
  });

  it("F5: a frame citing a file without a sha256 digest of its bytes is left out, never served", () => {
    const declared = checkDeclarations(provider());
    const cited = frame("cited", "c", {
      provenance: [{ type: "file", uri: "file:///x", range: "L1-2" }],
    });
    const out = cgpAnswer(QUERY, { frames: [cited], truncated: false }, declared);
    expect(out.frames).toEqual([]);
  });

  it("D1: a content_digest that is not the digest of the inline bytes is replaced (fix) or refused (refuse)", () => {
    const declared = checkDeclarations(provider());
    const lying = frame("lie", "real bytes", { content_digest: sha256Digest("other bytes") });
    const fixed = cgpAnswer(QUERY, { frames: [lying], truncated: false }, declared);
    expect(fixed.frames[0]?.content_digest).toBe(sha256Digest("real bytes"));
    expect(() =>
      cgpAnswer(QUERY, { frames: [lying], truncated: false }, declared, { mode: "refuse" }),
    ).toThrow(/D1/);
  });

  it("G1: a relation without display_name gets one; every frame then passes cgpFrameViolations", () => {
    const declared = checkDeclarations(provider());
    const related = frame("r", "r", {
      relations: [{ rel: "code.calls", target_uri: "file:///y" }],
    });
    const out = cgpAnswer(QUERY, { frames: [related], truncated: false }, declared);
    expect(out.frames[0]?.relations[0]?.display_name).toBe("file:///y");
    expect(cgpFrameViolations(out.frames[0]!)).toEqual([]);
  });
});

describe("queries refused before the provider sees them", () => {
  const fingerprinted = checkDeclarations(
    provider({ cgp: { embeddingsFingerprint: "bge-small-en-v1.5/3/l2" } }),
  );

  it("E1: an embedding whose length contradicts the declared dimension is bad_request", () => {
    expect(
      refuseCgpQuery({ ...QUERY, embedding: [0.1, 0.2] }, fingerprinted, ["doc"]),
    ).toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/E1: .*2 dimensions.*declares 3/),
    });
    expect(refuseCgpQuery({ ...QUERY, embedding: [0.1, 0.2, 0.3] }, fingerprinted, ["doc"])).toBe(
      undefined,
    );
  });

  it("E1: any embedding to a provider that declares no fingerprint is bad_request", () => {
    const plain = checkDeclarations(provider());
    expect(refuseCgpQuery({ ...QUERY, embedding: [1] }, plain, [])?.code).toBe("bad_request");
  });

  it("P5: a representation the provider did not advertise is unsupported_representation", () => {
    const plain = checkDeclarations(provider());
    expect(
      refuseCgpQuery({ ...QUERY, representation_preferences: ["compact"] }, plain, [])?.code,
    ).toBe("unsupported_representation");
    expect(refuseCgpQuery({ ...QUERY, representation_preferences: ["full"] }, plain, [])).toBe(
      undefined,
    );
  });

  it("F4: an as_of outside the UTC profile is bad_request", () => {
    const plain = checkDeclarations(provider());
    expect(refuseCgpQuery({ ...QUERY, as_of: "2026-07-01 00:00:00" }, plain, [])?.code).toBe(
      "bad_request",
    );
  });
});

describe("declarations checked when the provider is built", () => {
  it("C5: an off-machine egress scope with egress: false is an invalid_provider error at start-up", () => {
    const lying = provider({ cgp: { egressScopes: ["third-party-index"] } });
    expect(() => defineProvider(lying)).toThrow(
      expect.objectContaining({ code: "invalid_provider", details: { rule: "C5" } }),
    );
    expect(() => new CgpResponder(lying)).toThrow(/C5/);
    const honest = provider({
      info: { name: "p", version: "1", data_flow: { reads: true, writes: false, egress: true } },
      cgp: { egressScopes: ["third-party-index"] },
    });
    expect(defineProvider(honest).cgp).toEqual({ egressScopes: ["third-party-index"] });
  });

  it("U3: a custom egress scope that is not namespaced is refused; vendor:name is accepted", () => {
    expect(() => defineProvider(provider({ cgp: { egressScopes: ["mycloud"] } }))).toThrow(
      /C5: .*"mycloud" is neither a base scope nor namespaced/,
    );
    const egress = { reads: true, writes: false, egress: true };
    const vendor = provider({
      info: { name: "p", version: "1", data_flow: egress },
      cgp: { egressScopes: ["acme:vault"] },
    });
    expect(checkDeclarations(vendor).egressScopes).toEqual(["acme:vault"]);
  });

  it("E1, §6.4.1, H2: a malformed fingerprint, compact without resolve, or an empty name is refused", () => {
    expect(() => defineProvider(provider({ cgp: { embeddingsFingerprint: "bge" } }))).toThrow(/E1/);
    expect(() => defineProvider(provider({ cgp: { representations: ["compact"] } }))).toThrow(
      /X-RESOLVE/,
    );
    const nameless = provider({
      info: { name: "", version: "1", data_flow: { reads: true, writes: false, egress: false } },
    });
    expect(() => defineProvider(nameless)).toThrow(/H2/);
  });
});

describe("CgpResponder", () => {
  it("U1/§2.1: unknown members are ignored; an unknown type with a payload is bad_request; a bare notification is ignored", () => {
    const responder = new CgpResponder(provider());
    expect(
      responder.read({ type: "query", id: "q", x_future: 1, query: { ...QUERY, extra: true } }),
    ).toMatchObject({ type: "query", id: "q" });
    expect(responder.read({ type: "subscribe", id: "s1", topic: "x" })).toMatchObject({
      type: "refuse",
      id: "s1",
      code: "bad_request",
    });
    expect(responder.read({ type: "ping" }).type).toBe("ignore");
    expect(responder.read({ type: "query", query: { goal: 1 } })).toMatchObject({
      type: "refuse",
      code: "bad_request",
    });
  });

  it("H1/H3: a contextgraph/1 handshake gets a strict-valid ack; contextgraph/2.0 gets incompatible_version", () => {
    const responder = new CgpResponder(provider({ cgp: { egressScopes: ["local-only"] } }));
    const ack = JSON.parse(encodeCgp(responder.handshake("contextgraph/1.0")));
    expect(CgpStrictEnvelopeSchema.safeParse(ack).success).toBe(true);
    expect(ack).toMatchObject({
      protocol_version: "contextgraph/1.0-draft",
      provider: { data_flow: { egress_scopes: ["local-only"] } },
      capabilities: { verify: false, correlation: true },
    });
    expect(responder.handshake("contextgraph/2.0")).toMatchObject({
      type: "error",
      code: "incompatible_version",
    });
  });

  it("V2: a provider that does not declare verify answers unknown for every frame, echoing each identity", async () => {
    const responder = new CgpResponder(provider());
    const asked = [{ provider_id: "host-key", frame_id: "a", content_digest: sha256Digest("a") }];
    const reply = await responder.verify(asked, "v1");
    expect(reply).toEqual({
      type: "verified",
      id: "v1",
      response: { verdicts: [{ frame: asked[0], status: "unknown" }] },
    });
  });

  it("V2–V4: valid or stale without a presented digest is unknown, a replacement rides only on stale", async () => {
    const d = sha256Digest("x");
    const responder = new CgpResponder(
      provider({
        async verify(frames) {
          return frames.map((f) =>
            f.frame_id === "valid-no-digest" || f.frame_id === "v"
              ? { frame: f, status: "valid" as const }
              : f.frame_id === "s" || f.frame_id === "stale-no-digest"
                ? { frame: f, status: "stale" as const, replacement_digest: d }
                : { frame: f, status: "gone" as const, replacement_digest: d },
          );
        },
      }),
    );
    const asked = [
      { provider_id: "p", frame_id: "v", content_digest: d },
      { provider_id: "p", frame_id: "valid-no-digest" },
      { provider_id: "p", frame_id: "s", content_digest: sha256Digest("old") },
      { provider_id: "p", frame_id: "g", content_digest: d },
      { provider_id: "p", frame_id: "stale-no-digest" },
    ];
    const reply = (await responder.verify(asked, undefined)) as unknown as {
      response: { verdicts: Array<{ status: string; replacement_digest?: string }> };
    };
    expect(reply.response.verdicts.map((v) => [v.status, v.replacement_digest])).toEqual([
      ["valid", undefined],
      ["unknown", undefined],
      ["stale", d],
      ["gone", undefined],
      ["unknown", undefined],
    ]);
  });

  it("a verify naming more than MAX_VERIFY_FRAMES identities is bad_request; the provider is not asked", async () => {
    const { MAX_VERIFY_FRAMES } = await import("../src/kit.js");
    let asked = 0;
    const responder = new CgpResponder(
      provider({
        async verify(frames) {
          asked += frames.length;
          return [];
        },
      }),
    );
    const frames = Array.from({ length: MAX_VERIFY_FRAMES + 1 }, (_, i) => ({
      provider_id: "p",
      frame_id: `f${i}`,
    }));
    expect(await responder.verify(frames, "big")).toMatchObject({
      type: "error",
      id: "big",
      code: "bad_request",
    });
    expect(asked).toBe(0);
  });

  it("a provider failure is an error envelope with its code (X1), never a throw", async () => {
    const { wireError } = await import("../src/errors.js");
    const responder = new CgpResponder(
      provider({
        async query() {
          throw wireError("unavailable", "index rebuilding");
        },
      }),
    );
    expect(await responder.query(QUERY, "q9")).toEqual({
      type: "error",
      id: "q9",
      code: "unavailable",
      message: "index rebuilding",
    });
  });
});

describe("defineProvider and verdictsFrom", () => {
  it("fills the defaults an author leaves out (no data flow, no capability, a no-op shutdown)", async () => {
    const { defineProvider: define } = await import("../src/kit.js");
    const built = define({
      id: "n",
      info: { name: "n", version: "1" },
      capabilities: { query: { kinds: ["doc"] } },
      async query() {
        return { frames: [], truncated: false };
      },
    });
    expect(built.info.data_flow).toEqual({ reads: false, writes: false, egress: false });
    expect(built.capabilities).toMatchObject({
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
    });
    await expect(built.shutdown()).resolves.toBeUndefined();
  });

  it("V1–V4: verdictsFrom compares each presented digest with the current one (none: gone)", async () => {
    const { verdictsFrom } = await import("../src/kit.js");
    const now = sha256Digest("now");
    const verdicts = verdictsFrom(
      [
        { provider_id: "p", frame_id: "a", content_digest: now },
        { provider_id: "p", frame_id: "a", content_digest: sha256Digest("then") },
        { provider_id: "p", frame_id: "a" },
        { provider_id: "p", frame_id: "gone", content_digest: now },
      ],
      (id) => (id === "a" ? now : undefined),
    );
    expect(verdicts.map((v) => [v.status, v.replacement_digest])).toEqual([
      ["valid", undefined],
      ["stale", now],
      ["unknown", undefined],
      ["gone", undefined],
    ]);
  });
});
