import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import type { OCPHub } from "@ocp/a2a-ocp-hub";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { identity } from "@ocp/testkit";
import { type NdjsonChild, ndjsonChild } from "@ocp/testkit/ndjson";
import {
  CgpStrictEnvelopeSchema,
  canonicalTokenCost,
  cgpAnswerViolations,
  sha256Digest,
} from "@ocp/types/cgp";
import { beforeAll, describe, expect, it } from "vitest";
import { BACKOFF, CLI, providerArgs, teamOnHub } from "./support.js";

const team = teamOnHub("ocp-team-context-cgp-", { alice: [{ ...BACKOFF, data: {} }] });
let hub: OCPHub;
let alice: OCPAgent;
let child: NdjsonChild | undefined;
beforeAll(() => {
  hub = team.hub;
  alice = team.agent("alice");
  team.closers.push(async () => child?.child.kill());
});

function strict(envelope: Record<string, unknown>): Record<string, unknown> {
  const parsed = CgpStrictEnvelopeSchema.safeParse(envelope);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return envelope;
}

describe("ocp-team-context under contextgraph/1", () => {
  it("the CLI over stdio acks contextgraph/1.0-draft and answers B3-costed, digested frames that keep every CGP rule", async () => {
    const file = `${team.dir}/reader.json`;
    await saveIdentity(file, identity("reader"));
    child = ndjsonChild(process.execPath, [CLI, ...providerArgs(hub.url, file, [alice.id])]);
    child.send({ type: "handshake", protocol_version: "contextgraph/1.0-draft" });
    expect(strict(await child.next(60_000))).toMatchObject({
      protocol_version: "contextgraph/1.0-draft",
      provider: { name: "ocp-team-context", data_flow: { egress: false } },
      capabilities: { verify: false },
    });
    const query = {
      goal: "websocket reconnect backoff",
      kinds: [],
      anchors: [],
      max_frames: 4,
      max_tokens: 600,
    };
    let frames: Array<{ content: string; token_cost: number; content_digest: string }> = [];
    // The agent joins and receives alice's node in the background: ask until it has.
    for (let attempt = 0; attempt < 20 && frames.length === 0; attempt++) {
      child.send({ type: "query", id: `q${attempt}`, query });
      const reply = strict(await child.next(30_000));
      expect(reply.id).toBe(`q${attempt}`);
      frames = (reply.result as { frames: typeof frames }).frames;
    }
    expect(frames.length).toBeGreaterThan(0);
    expect(cgpAnswerViolations(query, frames as never)).toEqual([]);
    for (const frame of frames) {
      expect(frame.token_cost).toBe(canonicalTokenCost(frame.content));
      expect(frame.content_digest).toBe(sha256Digest(frame.content));
    }
    child.send({ type: "shutdown" });
    expect(await child.exited).toBe(0);
  });
});
