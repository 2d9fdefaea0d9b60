import { type NdjsonChild, ndjsonChild } from "@ocp/testkit/ndjson";
import {
  CgpStrictEnvelopeSchema,
  canonicalTokenCost,
  cgpAnswerViolations,
  sha256Digest,
} from "@ocp/types/cgp";
import { afterEach, describe, expect, it } from "vitest";
import { fixture } from "./helpers.js";

const CGP = "contextgraph/1.0-draft";
const children: NdjsonChild[] = [];
function served(...args: string[]): NdjsonChild {
  const child = ndjsonChild(process.execPath, [fixture("served-cgp.mjs"), ...args]);
  children.push(child);
  return child;
}
afterEach(() => {
  for (const c of children.splice(0)) c.child.kill();
});

/** Every envelope the provider emits under CGP keeps the authoring-strict schema. */
function strict(envelope: Record<string, unknown>): Record<string, unknown> {
  const parsed = CgpStrictEnvelopeSchema.safeParse(envelope);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return envelope;
}

async function cgpSession(...args: string[]): Promise<NdjsonChild> {
  const child = served(...args);
  child.send({ type: "handshake", protocol_version: CGP });
  strict(await child.next());
  return child;
}

const QUERY = { goal: "all", kinds: [], anchors: [], max_frames: 8, max_tokens: 1000 };
type Frame = {
  id: string;
  kind: string;
  title: string;
  score: number;
  content: string;
  token_cost: number;
  content_digest: string;
};

describe("serveStdio under contextgraph/1 (a real child process)", () => {
  it("H1: a contextgraph/1.0-draft handshake gets a contextgraph/1.0-draft ack with scopes, verify and fingerprint", async () => {
    const child = served();
    child.send({ type: "handshake", protocol_version: CGP, x_future_member: { ignored: true } });
    const ack = strict(await child.next());
    expect(ack).toMatchObject({
      type: "handshake_ack",
      protocol_version: CGP,
      provider: { name: "served-cgp", data_flow: { egress: false, egress_scopes: ["local-only"] } },
      capabilities: { verify: true, correlation: true, embeddings_fingerprint: "toy-embed/3/l2" },
    });
  });

  it("H1: an ocp/1.0-draft handshake still gets the ocp/1 ack, without any CGP member", async () => {
    const child = served();
    child.send({ type: "handshake", protocol_version: "ocp/1.0-draft" });
    const ack = await child.next();
    expect(ack.protocol_version).toBe("ocp/1.0-draft");
    expect(ack.capabilities).toEqual({
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
    });
    expect(JSON.stringify(ack)).not.toMatch(/egress_scopes|verify/);
  });

  it("H3: contextgraph/2.0 is refused incompatible_version, code included; the session stays usable", async () => {
    const child = served();
    child.send({ type: "handshake", protocol_version: "contextgraph/2.0" });
    expect(strict(await child.next())).toMatchObject({
      type: "error",
      code: "incompatible_version",
    });
    child.send({ type: "handshake", protocol_version: CGP });
    expect((await child.next()).type).toBe("handshake_ack");
  });

  it("B3/D1/F4: frames are costed ceil(bytes/4), digested, and keep every CGP rule (B1 and B4 included)", async () => {
    const child = await cgpSession();
    child.send({ type: "query", id: "q1", query: QUERY });
    const reply = strict(await child.next());
    expect(reply.id).toBe("q1");
    const frames = (reply.result as { frames: Frame[] }).frames;
    expect(frames.length).toBe(3);
    for (const frame of frames) {
      expect(frame.token_cost).toBe(canonicalTokenCost(frame.content));
      expect(frame.content_digest).toBe(sha256Digest(frame.content));
    }
    expect(cgpAnswerViolations(QUERY, frames)).toEqual([]);
  });

  it("B4: a provider flooding frames is cut down to max_frames by selection, never by trimming content", async () => {
    const child = await cgpSession();
    const query = { ...QUERY, goal: "flood", max_frames: 4 };
    child.send({ type: "query", query });
    const reply = strict(await child.next());
    const result = reply.result as { frames: Frame[]; truncated: boolean };
    expect(result.frames.length).toBe(4);
    expect(result.truncated).toBe(true);
    expect(cgpAnswerViolations(query, result.frames)).toEqual([]);
  });

  it("as_of: frames not yet valid at the pinned instant are not served", async () => {
    const child = await cgpSession();
    child.send({ type: "query", query: { ...QUERY, as_of: "2026-07-01T00:00:00Z" } });
    const frames = (strict(await child.next()).result as { frames: Frame[] }).frames;
    expect(frames.map((f) => f.id)).toEqual(["alpha", "beta"]);
  });

  it("E1: an embedding whose length contradicts the declared dimension is bad_request", async () => {
    const child = await cgpSession();
    child.send({ type: "query", id: "e", query: { ...QUERY, embedding: [0.1, 0.2] } });
    expect(strict(await child.next())).toMatchObject({
      type: "error",
      id: "e",
      code: "bad_request",
    });
  });

  it("P5: a representation the provider did not advertise is unsupported_representation", async () => {
    const child = await cgpSession();
    child.send({ type: "query", query: { ...QUERY, representation_preferences: ["compact"] } });
    expect(strict(await child.next())).toMatchObject({ code: "unsupported_representation" });
  });

  it("§2.1/U1: an unknown envelope type is bad_request, unknown members are ignored, and the session goes on", async () => {
    const child = await cgpSession();
    child.send({ type: "subscribe", id: "s1", topic: "everything" });
    expect(strict(await child.next())).toMatchObject({
      type: "error",
      id: "s1",
      code: "bad_request",
    });
    child.send("this is not valid json {{{");
    expect(strict(await child.next())).toMatchObject({ type: "error", code: "bad_request" });
    child.send({
      type: "query",
      id: "q2",
      query: { ...QUERY, x_new_field: [1, 2] },
      x_top: "ignored",
    });
    expect((await child.next()).type).toBe("frames");
  });

  it("V1–V4: verify answers from the current digests: valid, stale with the replacement, gone, unknown", async () => {
    const child = await cgpSession();
    child.send({ type: "query", id: "q", query: QUERY });
    const frames = (strict(await child.next()).result as { frames: Frame[] }).frames;
    const held = frames.map((f) => ({
      provider_id: "host-key",
      frame_id: f.id,
      content_digest: f.content_digest,
    }));
    child.send({ type: "verify", id: "v1", request: { frames: held } });
    const first = strict(await child.next()) as {
      response: { verdicts: Array<{ status: string }> };
    };
    expect(first.response.verdicts.map((v) => v.status)).toEqual(["valid", "valid", "valid"]);
    child.send({ type: "query", query: { ...QUERY, goal: "edit:alpha" } });
    await child.next();
    child.send({ type: "query", query: { ...QUERY, goal: "delete:beta" } });
    await child.next();
    child.send({
      type: "verify",
      id: "v2",
      request: { frames: [...held, { provider_id: "host-key", frame_id: "gamma" }] },
    });
    const second = strict(await child.next()) as {
      id: string;
      response: {
        verdicts: Array<{
          frame: { frame_id: string };
          status: string;
          replacement_digest?: string;
        }>;
      };
    };
    expect(second.id).toBe("v2");
    expect(second.response.verdicts.map((v) => [v.frame.frame_id, v.status])).toEqual([
      ["alpha", "stale"],
      ["beta", "gone"],
      ["gamma", "valid"],
      ["gamma", "unknown"],
    ]);
    expect(second.response.verdicts[0]?.replacement_digest).toBe(
      sha256Digest("Alpha: retries double the backoff. (edited)"),
    );
    expect(second.response.verdicts[0]).toMatchObject({ frame: held[0] });
  });

  it("V2: a provider that does not declare verify says so at the handshake and answers unknown", async () => {
    const child = served("--no-verify");
    child.send({ type: "handshake", protocol_version: CGP });
    expect(strict(await child.next()).capabilities).toMatchObject({ verify: false });
    child.send({
      type: "verify",
      request: {
        frames: [{ provider_id: "p", frame_id: "alpha", content_digest: sha256Digest("x") }],
      },
    });
    const reply = strict(await child.next()) as {
      response: { verdicts: Array<{ status: string }> };
    };
    expect(reply.response.verdicts.map((v) => v.status)).toEqual(["unknown"]);
  });

  it("X1: a provider failure is an error with the provider's code and the query's id", async () => {
    const child = await cgpSession();
    child.send({ type: "query", id: "f", query: { ...QUERY, goal: "fail" } });
    expect(strict(await child.next())).toEqual({
      type: "error",
      id: "f",
      code: "unavailable",
      message: "index rebuilding",
    });
  });

  it("C5: a provider declaring an off-machine scope with egress: false never starts serving", async () => {
    const child = served("--scope-lie");
    expect(await child.exited).toBe(3);
    expect(child.stderr()).toMatch(/invalid_provider: C5: .*third-party-index/);
  });

  it("R2: shutdown tears the provider down and exits 0", async () => {
    const child = await cgpSession();
    child.send({ type: "shutdown" });
    expect(await child.exited).toBe(0);
    expect(child.stderr()).toContain("shutdown called");
  });
});
