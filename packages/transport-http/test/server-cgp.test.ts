import { DUAL_TEXT, dualFrame, dualProvider } from "@ocp/testkit/dual";
import { wireError } from "@ocp/types";
import {
  CgpStrictEnvelopeSchema,
  canonicalTokenCost,
  cgpAnswerViolations,
  sha256Digest,
} from "@ocp/types/cgp";
import type { DualProvider } from "@ocp/types/kit";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHttpProviderServer,
  type HttpProviderServer,
  PROTOCOL_VERSION_HEADER,
} from "../src/index.js";

const CGP = "contextgraph/1.0-draft";
const OCP = "ocp/1.0-draft";
const TEXT = DUAL_TEXT;

/** The shared dual provider, refusing the goal "fail" and verifying its one frame. */
function dual(overrides: Partial<DualProvider> = {}): DualProvider {
  return dualProvider({
    async query(query) {
      if (query.goal === "fail") throw wireError("budget_unsatisfiable", "too small");
      return { frames: [dualFrame()], truncated: false };
    },
    async verify(frames) {
      return frames.map((frame) =>
        frame.frame_id !== "retry"
          ? { frame, status: "gone" as const }
          : frame.content_digest === sha256Digest(TEXT)
            ? { frame, status: "valid" as const }
            : { frame, status: "stale" as const, replacement_digest: sha256Digest(TEXT) },
      );
    },
    ...overrides,
  });
}

const started: HttpProviderServer[] = [];
async function serve(provider: DualProvider) {
  const server = createHttpProviderServer(provider);
  started.push(server);
  const url = await server.listen();
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await request(url, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      body: (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>,
    };
  };
  return { post };
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

function strict(body: Record<string, unknown>): Record<string, unknown> {
  const parsed = CgpStrictEnvelopeSchema.safeParse(body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return body;
}

const QUERY = { goal: "retry", kinds: [], anchors: [], max_frames: 4, max_tokens: 500 };
type Frames = {
  result: { frames: Array<{ token_cost: number; content: string; content_digest?: string }> };
};

describe("createHttpProviderServer in both families", () => {
  it("H1: a contextgraph handshake gets the CGP ack; an ocp handshake the ocp/1 ack, unchanged", async () => {
    const { post } = await serve(dual());
    const cgp = await post({ type: "handshake", protocol_version: CGP, x_unknown: 1 });
    expect(cgp.status).toBe(200);
    expect(strict(cgp.body)).toMatchObject({
      protocol_version: CGP,
      provider: { data_flow: { egress_scopes: ["local-only"] } },
      capabilities: { verify: true },
    });
    const ocp = await post({ type: "handshake", protocol_version: OCP });
    expect(ocp.body).toMatchObject({ type: "handshake_ack", protocol_version: OCP });
    expect(JSON.stringify(ocp.body)).not.toMatch(/egress_scopes|verify/);
  });

  it("the ocp-protocol-version header picks each request's family: B3 costs and digests under CGP, the provider's under ocp/1", async () => {
    const { post } = await serve(dual());
    const cgp = await post({ type: "query", query: QUERY }, { [PROTOCOL_VERSION_HEADER]: CGP });
    const frame = (strict(cgp.body) as unknown as Frames).result.frames[0]!;
    expect(frame.token_cost).toBe(canonicalTokenCost(TEXT));
    expect(frame.content_digest).toBe(sha256Digest(TEXT));
    expect(cgpAnswerViolations(QUERY, [frame as never])).toEqual([]);
    const ocp = await post({ type: "query", query: QUERY }, { [PROTOCOL_VERSION_HEADER]: OCP });
    const ocpFrame = (ocp.body as unknown as Frames).result.frames[0]!;
    expect(ocpFrame.token_cost).toBe(40);
    expect(ocpFrame.content_digest).toBeUndefined();
  });

  it("without the header a request is of the family of the last handshake from its address", async () => {
    const { post } = await serve(dual());
    await post({ type: "handshake", protocol_version: CGP });
    const cgp = await post({ type: "query", query: QUERY });
    expect((cgp.body as unknown as Frames).result.frames[0]?.token_cost).toBe(
      canonicalTokenCost(TEXT),
    );
    await post({ type: "handshake", protocol_version: OCP });
    const ocp = await post({ type: "query", query: QUERY });
    expect((ocp.body as unknown as Frames).result.frames[0]?.token_cost).toBe(40);
  });

  it("one address's handshake never sets the family of another address's requests", async () => {
    const server = createHttpProviderServer(dual());
    started.push(server);
    const inject = (remoteAddress: string, body: unknown) =>
      server.app.inject({
        method: "POST",
        url: "/",
        remoteAddress,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
    await inject("10.0.0.1", { type: "handshake", protocol_version: CGP });
    const stranger = await inject("10.0.0.2", { type: "query", query: QUERY });
    expect((stranger.json() as Frames).result.frames[0]?.token_cost).toBe(40);
    const same = await inject("10.0.0.1", { type: "query", query: QUERY });
    expect((same.json() as Frames).result.frames[0]?.token_cost).toBe(canonicalTokenCost(TEXT));
  });

  it("V1–V4: verify over HTTP answers from the provider's current digests", async () => {
    const { post } = await serve(dual());
    const held = [
      { provider_id: "h", frame_id: "retry", content_digest: sha256Digest(TEXT) },
      { provider_id: "h", frame_id: "retry", content_digest: sha256Digest("older") },
      { provider_id: "h", frame_id: "removed", content_digest: sha256Digest("x") },
    ];
    const reply = await post(
      { type: "verify", id: "v", request: { frames: held } },
      { [PROTOCOL_VERSION_HEADER]: CGP },
    );
    const verdicts = (strict(reply.body).response as { verdicts: Array<{ status: string }> })
      .verdicts;
    expect(verdicts.map((v) => v.status)).toEqual(["valid", "stale", "gone"]);
  });

  it("§2.1, E1, X1, H3: unknown type 400 bad_request; wrong embedding, provider failure, contextgraph/2.0 named by code", async () => {
    const { post } = await serve(
      dual({ cgp: { egressScopes: ["local-only"], embeddingsFingerprint: "m/2" } }),
    );
    const cgp = { [PROTOCOL_VERSION_HEADER]: CGP };
    const unknown = await post({ type: "resolve", id: "r", request: {} }, cgp);
    expect(unknown.status).toBe(400);
    expect(strict(unknown.body)).toMatchObject({ id: "r", code: "bad_request" });
    const embedding = await post({ type: "query", query: { ...QUERY, embedding: [1, 2, 3] } }, cgp);
    expect(strict(embedding.body)).toMatchObject({ code: "bad_request" });
    const failed = await post({ type: "query", id: "f", query: { ...QUERY, goal: "fail" } }, cgp);
    expect(strict(failed.body)).toMatchObject({ id: "f", code: "budget_unsatisfiable" });
    const v2 = await post({ type: "handshake", protocol_version: "contextgraph/2.0" });
    expect(strict(v2.body)).toMatchObject({ type: "error", code: "incompatible_version" });
  });

  it("C5: a provider whose egress scopes contradict egress: false is refused when the server is created", () => {
    expect(() =>
      createHttpProviderServer(dual({ cgp: { egressScopes: ["third-party-model"] } })),
    ).toThrow(expect.objectContaining({ code: "invalid_provider" }));
  });
});
