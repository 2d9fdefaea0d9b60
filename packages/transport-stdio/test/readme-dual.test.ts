import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type NdjsonChild, ndjsonChild } from "@ocp/testkit/ndjson";
import {
  CgpStrictEnvelopeSchema,
  canonicalTokenCost,
  cgpAnswerViolations,
  sha256Digest,
} from "@ocp/types/cgp";
import { countTokens } from "@ocp/types/tokens";
import { afterEach, describe, expect, it } from "vitest";
import { spawnStdioProvider } from "../src/index.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const example = fileURLToPath(new URL("../examples/dual-provider.mjs", import.meta.url));
const NOTE = "max_attempts bounds the tries; backoff_ms doubles after each one.";
const QUERY = { goal: "retry", kinds: [], anchors: [], max_frames: 5, max_tokens: 100 };
const children: NdjsonChild[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.child.kill();
});

function strict(envelope: Record<string, unknown>): Record<string, unknown> {
  const parsed = CgpStrictEnvelopeSchema.safeParse(envelope);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return envelope;
}

describe("README: one provider, both families", () => {
  it("shows examples/dual-provider.mjs verbatim, in under 30 lines", async () => {
    const readme = await readFile(`${root}/README.md`, "utf8");
    const source = await readFile(example, "utf8");
    expect(readme).toContain(`\`\`\`js\n${source}\`\`\``);
    expect(source.trimEnd().split("\n").length).toBeLessThan(30);
  });

  it("ocp/1: the example, spawned by our ocp/1 host, answers as it always did", async () => {
    const provider = await spawnStdioProvider({
      id: "notes",
      command: process.execPath,
      args: [example],
    });
    try {
      expect(provider.protocolVersion).toBe("ocp/1.0-draft");
      const result = await provider.query(QUERY);
      expect(result.frames.map((f) => [f.id, f.token_cost])).toEqual([
        ["retry", countTokens(NOTE)],
      ]);
      expect(result.frames[0]).not.toHaveProperty("content_digest");
    } finally {
      await provider.shutdown();
    }
  });

  it("contextgraph/1: the same example, as a real child, acks CGP, serves B3/D1 frames and verifies them", async () => {
    const child = ndjsonChild(process.execPath, [example]);
    children.push(child);
    child.send({ type: "handshake", protocol_version: "contextgraph/1.0-draft" });
    expect(strict(await child.next())).toMatchObject({
      protocol_version: "contextgraph/1.0-draft",
      provider: { data_flow: { egress: false, egress_scopes: ["local-only"] } },
      capabilities: { verify: true },
    });
    child.send({ type: "query", query: QUERY });
    const frames = (strict(await child.next()).result as { frames: never[] }).frames;
    expect(cgpAnswerViolations(QUERY, frames)).toEqual([]);
    expect(frames[0]).toMatchObject({
      token_cost: canonicalTokenCost(NOTE),
      content_digest: sha256Digest(NOTE),
    });
    expect(canonicalTokenCost(NOTE)).toBe(17);
    child.send({
      type: "verify",
      request: {
        frames: [
          { provider_id: "notes", frame_id: "retry", content_digest: sha256Digest(NOTE) },
          { provider_id: "notes", frame_id: "retry", content_digest: sha256Digest("older") },
          { provider_id: "notes", frame_id: "backoff", content_digest: sha256Digest(NOTE) },
        ],
      },
    });
    const verdicts = (
      strict(await child.next()).response as { verdicts: Array<{ status: string }> }
    ).verdicts;
    expect(verdicts.map((v) => v.status)).toEqual(["valid", "stale", "gone"]);
    child.send({ type: "shutdown" });
    expect(await child.exited).toBe(0);
  });
});
