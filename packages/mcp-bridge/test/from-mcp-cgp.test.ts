import { type NdjsonChild, ndjsonChild } from "@ocp/testkit/ndjson";
import {
  CgpStrictEnvelopeSchema,
  canonicalTokenCost,
  cgpAnswerViolations,
  sha256Digest,
} from "@ocp/types/cgp";
import { afterEach, describe, expect, it } from "vitest";
import { fromMcpCli, notesServer, SLOW } from "./helpers.js";

const children: NdjsonChild[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.child.kill();
});

function strict(envelope: Record<string, unknown>): Record<string, unknown> {
  const parsed = CgpStrictEnvelopeSchema.safeParse(envelope);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return envelope;
}

describe("ocp-from-mcp under contextgraph/1", () => {
  it(
    "an MCP server bridged over stdio acks contextgraph/1.0-draft and serves B3-costed, digested frames within max_frames",
    async () => {
      const child = ndjsonChild(process.execPath, [
        fromMcpCli,
        "--",
        process.execPath,
        notesServer,
      ]);
      children.push(child);
      child.send({ type: "handshake", protocol_version: "contextgraph/1.0-draft" });
      expect(strict(await child.next(SLOW))).toMatchObject({
        type: "handshake_ack",
        protocol_version: "contextgraph/1.0-draft",
        capabilities: { query: { kinds: ["doc"] }, correlation: true, verify: false },
      });
      const query = {
        goal: "token budgets",
        kinds: [],
        anchors: [],
        max_frames: 2,
        max_tokens: 2000,
      };
      child.send({ type: "query", id: "q1", query });
      const reply = strict(await child.next(SLOW));
      expect(reply.id).toBe("q1");
      const frames = (
        reply.result as {
          frames: Array<{ content: string; token_cost: number; content_digest: string }>;
        }
      ).frames;
      expect(frames.length).toBeGreaterThan(0);
      expect(frames.length).toBeLessThanOrEqual(2);
      expect(cgpAnswerViolations(query, frames as never)).toEqual([]);
      for (const frame of frames) {
        expect(frame.token_cost).toBe(canonicalTokenCost(frame.content));
        expect(frame.content_digest).toBe(sha256Digest(frame.content));
      }
      child.send({
        type: "verify",
        id: "v",
        request: {
          frames: [
            { provider_id: "mcp", frame_id: "x", content_digest: frames[0]!.content_digest },
          ],
        },
      });
      const verified = strict(await child.next(SLOW)) as {
        response: { verdicts: Array<{ status: string }> };
      };
      expect(verified.response.verdicts.map((v) => v.status)).toEqual(["unknown"]);
    },
    SLOW * 2,
  );
});
