import { sha256Digest } from "@ocp/types/cgp";
import { describe, expect, it } from "vitest";
import { checkVerifyHonesty } from "../src/cgp/verify.js";
import type { CgpMessage, Incoming, Session } from "../src/index.js";
import {
  AS_OF_PIN,
  cgpProbeQuery,
  judgeAsOf,
  judgeCgpHandshake,
  judgeCgpProbe,
  judgeConsentScope,
  mutatedDigest,
  readCgp,
} from "../src/internal.js";

const message = (value: unknown): CgpMessage =>
  readCgp({ kind: "message", raw: JSON.stringify(value), decoded: { ok: false } as never });

/** A session whose provider answers each sent envelope with `answer(envelope)`. */
function scripted(
  answer: (envelope: Record<string, unknown>) => unknown,
): Session & { sent: unknown[] } {
  const queue: Incoming[] = [];
  const sent: unknown[] = [];
  return {
    label: "scripted",
    sent,
    send(envelope) {
      sent.push(envelope);
      queue.push({
        kind: "message",
        raw: JSON.stringify(answer(envelope as Record<string, unknown>)),
        decoded: { ok: false } as never,
      });
    },
    next: async () => queue.shift() ?? { kind: "timeout", waitedMs: 0 },
    shutdown: async () => ({ kind: "answered", status: 200 }),
    dispose: async () => {},
  };
}

const content = "The retry loop doubles its delay.";
const frame = {
  id: "f1",
  kind: "doc",
  title: "Retry",
  content,
  content_digest: sha256Digest(content),
  score: 0.5,
  token_cost: Math.ceil(Buffer.byteLength(content) / 4),
  provenance: [],
  citation_label: "retry.md",
  relations: [],
};
const probe = message({ type: "frames", result: { frames: [frame], truncated: false } });

describe("the contextgraph/1 judges on hostile input", () => {
  it("a frames reply of garbage shapes is a frame-validity finding, never a throw", () => {
    const reply = message({
      type: "frames",
      result: { frames: [{ id: "x", provenance: "not a list", relations: 7, score: "high" }, 42] },
    });
    const judged = judgeCgpProbe(reply, cgpProbeQuery());
    expect(judged.frameValidity.status).toBe("fail");
    expect(judged.frameValidity.evidence).toMatch(/frame "x"/);
  });

  it("U1: unknown members on an honest frame and envelope fail nothing", () => {
    const reply = message({
      type: "frames",
      x_new: 1,
      result: {
        frames: [{ ...frame, x_added_in_1_9: { deep: true } }],
        truncated: false,
        x_more: [],
      },
    });
    const judged = judgeCgpProbe(reply, cgpProbeQuery());
    expect([judged.frameValidity.status, judged.budgetHonesty.status]).toEqual(["pass", "pass"]);
  });

  it("as-of-temporal judges only well-formed valid_from (a malformed one is F4's, not its)", () => {
    const late = { ...frame, valid_from: "2026-12-01T00:00:00Z" };
    const odd = { ...frame, id: "f2", valid_from: "next tuesday" };
    expect(judgeAsOf(message({ type: "frames", result: { frames: [odd] } })).status).toBe("pass");
    expect(judgeAsOf(message({ type: "frames", result: { frames: [late] } })).evidence).toContain(
      AS_OF_PIN,
    );
  });

  it("consent-scope tolerates non-string scopes and an unknown custom scope with egress: true", () => {
    const identity = (flow: Record<string, unknown>) => ({
      protocol_version: "contextgraph/1.0-draft",
      provider: { name: "p", version: "1", data_flow: flow },
      capabilities: {},
    });
    expect(
      judgeConsentScope(identity({ egress: true, egress_scopes: ["vendor:cache", 3] })).status,
    ).toBe("pass");
    expect(
      judgeConsentScope(identity({ egress: false, egress_scopes: ["vendor:cache"] })).status,
    ).toBe("fail");
  });

  it("H1: an ack of another family and an ack with an empty name are named", () => {
    const ack = (version: string, name: string) =>
      message({
        type: "handshake_ack",
        protocol_version: version,
        provider: { name, version: "1", data_flow: {} },
        capabilities: {},
      });
    expect(judgeCgpHandshake(ack("ocp/1.0-draft", "p")).check.evidence).toMatch(
      /^H1: acked protocol_version "ocp\/1\.0-draft"/,
    );
    expect(judgeCgpHandshake(ack("contextgraph/1.0", "")).check.evidence).toMatch(
      /^H2: provider\.name is empty/,
    );
  });
});

describe("verify-honesty against scripted providers", () => {
  const options = { declared: true, correlation: true, timeoutMs: 1_000 };

  it("V1: carries identities only, never a frame body; an honest provider passes", async () => {
    const session = scripted((envelope) => {
      const frames = (envelope.request as { frames: Record<string, unknown>[] }).frames;
      return {
        type: "verified",
        id: envelope.id,
        response: {
          verdicts: frames.map((asked) =>
            asked.content_digest === frame.content_digest
              ? { frame: asked, status: "valid" }
              : { frame: asked, status: "stale", replacement_digest: frame.content_digest },
          ),
        },
      };
    });
    const { check } = await checkVerifyHonesty(session, probe, options);
    expect(check.status).toBe("pass");
    expect(JSON.stringify(session.sent)).not.toContain(content);
  });

  it("V2: a verdict echoing another identity (shifted onto the wrong frame) counts as unknown", async () => {
    const session = scripted((envelope) => ({
      type: "verified",
      id: envelope.id,
      response: {
        verdicts: [
          {
            frame: { provider_id: "x", frame_id: "other", content_digest: frame.content_digest },
            status: "valid",
          },
        ],
      },
    }));
    const { check } = await checkVerifyHonesty(session, probe, options);
    expect(check.evidence).toBe(
      'V2: declares verify but did not answer valid for 1 of 1 frame(s) it had just served, digests unchanged: "f1" => unknown',
    );
  });

  it("V4: a stale verdict with a replacement that is not a digest fails", async () => {
    const session = scripted((envelope) => {
      const asked = (envelope.request as { frames: Record<string, unknown>[] }).frames[0]!;
      const valid = asked.content_digest === frame.content_digest;
      return {
        type: "verified",
        response: {
          verdicts: [
            {
              frame: asked,
              status: valid ? "valid" : "stale",
              replacement_digest: valid ? undefined : content,
            },
          ],
        },
      };
    });
    const { check } = await checkVerifyHonesty(session, probe, options);
    expect(check.evidence).toMatch(
      /^V4: "f1" => stale with a replacement_digest that is not sha256:<64 hex>$/,
    );
  });

  it("the changed digest the suite asks about is well-formed and differs", () => {
    expect(mutatedDigest(frame.content_digest)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(mutatedDigest(frame.content_digest)).not.toBe(frame.content_digest);
  });
});
