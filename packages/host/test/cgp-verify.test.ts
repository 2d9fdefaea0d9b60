import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Host, ReceiptLedger } from "../src/index.js";
import { CGP_QUERY, cgpStdio, received, scratch, typesReceived } from "./cgp-helpers.js";

let host: Host | undefined;
let tmp: Awaited<ReturnType<typeof scratch>>;
beforeEach(async () => {
  tmp = await scratch();
});
afterEach(async () => {
  await host?.shutdown({ timeoutMs: 2_000 });
  host = undefined;
  await tmp.done();
});

async function held(flags: string[], record = tmp.record) {
  host = new Host({ warn: () => undefined, legTimeoutMs: 5_000 });
  await host.addStdio({ ...cgpStdio("graph", record, flags), family: "contextgraph/1" });
  const fanOut = await host.queryAll(CGP_QUERY);
  return { host, frames: fanOut.accepted };
}

describe("§9: a held frame is reused only after verify says valid", () => {
  it("V3: valid verdicts keep the frames; the request carries identities only (V1), never a body", async () => {
    const { host, frames } = await held(["--verify"]);
    const verdict = await host.verifyFrames(frames);
    expect(verdict.retained).toEqual(frames);
    expect(verdict.dropped).toEqual([]);
    expect(verdict.requery).toEqual([]);
    const verify = (await received(tmp.record)).find((e) => e.type === "verify");
    expect(verify).toEqual({
      type: "verify",
      request: {
        frames: frames.map((f) => ({
          provider_id: "graph",
          frame_id: f.frame.id,
          content_digest: f.cgp?.content_digest,
        })),
      },
    });
    expect(JSON.stringify(verify)).not.toContain("Content of");
  });

  it("V4: stale frames (content changed since) are dropped, with the replacement digest, and the provider is re-queried", async () => {
    const { host, frames } = await held(["--verify", "--mutate"]);
    const verdict = await host.verifyFrames(frames);
    expect(verdict.retained).toEqual([]);
    expect(verdict.dropped.map((d) => d.reason)).toEqual(["stale", "stale"]);
    expect(verdict.dropped[0]?.replacementDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(verdict.dropped[0]?.replacementDigest).not.toBe(frames[0]?.cgp?.content_digest);
    expect(verdict.requery).toEqual(["graph"]);
  });

  it("V2, V3: unknown and a missing verdict are never validity; gone is dropped without a re-query", async () => {
    const { host, frames } = await held(["--verify", "--verdicts", '{"a":"unknown","b":"omit"}']);
    const first = await host.verifyFrames(frames);
    expect(first.retained).toEqual([]);
    expect(first.dropped.map((d) => [d.held.frame.id, d.reason, d.requery])).toEqual([
      ["a", "unknown", true],
      ["b", "no_verdict", true],
    ]);
    await host.shutdown();
    const again = await held(["--verify", "--verdicts", '{"a":"gone"}'], `${tmp.record}.2`);
    const second = await again.host.verifyFrames(again.frames);
    expect(second.retained.map((f) => f.frame.id)).toEqual(["b"]);
    expect(second.dropped.map((d) => [d.held.frame.id, d.reason, d.requery])).toEqual([
      ["a", "gone", false],
    ]);
    expect(second.requery).toEqual([]);
  });

  it("a verdict for a frame's id with another digest does not bless the held frame (matched by the whole identity)", async () => {
    const { host, frames } = await held(["--verify"]);
    const forged = frames.map((f) => ({
      ...f,
      cgp: { ...f.cgp!, content_digest: `sha256:${"0".repeat(64)}` },
    }));
    const verdict = await host.verifyFrames(forged);
    expect(verdict.retained).toEqual([]);
    expect(verdict.dropped.map((d) => d.reason)).toEqual(["stale", "stale"]);
  });

  it("D3: digest-less frames are never reused and never sent for verification", async () => {
    const { host, frames } = await held(["--verify", "--no-digest"]);
    const verdict = await host.verifyFrames(frames);
    expect(verdict.retained).toEqual([]);
    expect(verdict.dropped.map((d) => d.reason)).toEqual(["no_digest", "no_digest"]);
    expect(await typesReceived(tmp.record)).toEqual(["handshake", "query"]);
  });

  it("a provider that did not declare verify is sent nothing, and its frames are re-queried", async () => {
    const { host, frames } = await held([]);
    const verdict = await host.verifyFrames(frames);
    expect(verdict.dropped.map((d) => d.reason)).toEqual([
      "verify_not_supported",
      "verify_not_supported",
    ]);
    expect(verdict.requery).toEqual(["graph"]);
    expect(await typesReceived(tmp.record)).toEqual(["handshake", "query"]);
  });

  it("C6: once a scope is revoked, verify sends nothing either", async () => {
    const receipts = ReceiptLedger.inMemory();
    host = new Host({ warn: () => undefined, legTimeoutMs: 5_000, receipts });
    await host.addStdio({
      ...cgpStdio("graph", tmp.record, ["--verify", "--egress", "--scopes", "org-tenant"]),
      family: "contextgraph/1",
    });
    const alice = { kind: "human" as const, id: "alice" };
    await host.grantScope("graph", "org-tenant", alice);
    const frames = (await host.queryAll(CGP_QUERY)).accepted;
    await host.revokeScope("graph", "org-tenant", alice);
    const verdict = await host.verifyFrames(frames);
    expect(verdict.dropped.map((d) => d.reason)).toEqual(["consent_required", "consent_required"]);
    expect(verdict.dropped[0]?.error?.message).toContain("org-tenant");
    expect(await typesReceived(tmp.record)).toEqual(["handshake", "query"]);
  });

  it("ocp/1 frames and frames of unknown providers are partitioned too, none silently lost", async () => {
    const { host, frames } = await held(["--verify"]);
    const ocp = { providerId: "graph", frame: frames[0]!.frame };
    const stranger = { ...frames[1]!, providerId: "nobody" };
    const verdict = await host.verifyFrames([ocp, stranger, frames[1]!]);
    expect(verdict.retained).toEqual([frames[1]]);
    expect(verdict.dropped.map((d) => d.reason)).toEqual(["not_verifiable", "unknown_provider"]);
  });
});
