import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type NdjsonChild, ndjsonChild } from "@ocp/testkit/ndjson";
import {
  CgpStrictEnvelopeSchema,
  canonicalTokenCost,
  cgpAnswerViolations,
  cgpFrameViolations,
  sha256Digest,
} from "@ocp/types/cgp";
import { countTokens } from "@ocp/types/tokens";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const CGP = "contextgraph/1.0-draft";
const GUIDE =
  "# Guide\n\nIntro.\n\n## Retry policy\n\nRetries double backoff_ms after each attempt,\nup to max_attempts.\n\n## Logging\n\nLogs go to stderr.\n";
const RETRY = "export function retry(attempts: number) {\r\n  return attempts * 2;\r\n}";
const MTIME = new Date("2026-03-01T12:00:00Z");

interface Frame {
  id: string;
  kind: string;
  title: string;
  score: number;
  content: string;
  token_cost: number;
  canonical_token_cost?: number;
  tokenizer_ref?: string;
  content_digest?: string;
  valid_from?: string;
  provenance: Array<{ type: string; uri: string; range: string; digest: string }>;
}

function corpus(): string {
  const dir = mkdtempSync(join(tmpdir(), "ocp-demo-cgp-"));
  writeFileSync(join(dir, "guide.md"), GUIDE);
  writeFileSync(join(dir, "retry.ts"), RETRY);
  for (const name of ["guide.md", "retry.ts"]) utimesSync(join(dir, name), MTIME, MTIME);
  return dir;
}

function strict(envelope: Record<string, unknown>): Record<string, unknown> {
  const parsed = CgpStrictEnvelopeSchema.safeParse(envelope);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return envelope;
}

/** F5 (SPEC §6.2): the bytes `L<a>-<b>` address on disk, each line with its terminator. */
function citedBytes(uri: string, range: string): Buffer {
  const bytes = readFileSync(fileURLToPath(uri));
  const [start, end] = /^L(\d+)-(\d+)$/.exec(range)!.slice(1).map(Number) as [number, number];
  const spans: Array<[number, number]> = [];
  let from = 0;
  bytes.forEach((byte, i) => {
    if (byte === 0x0a) {
      spans.push([from, i + 1]);
      from = i + 1;
    }
  });
  if (from < bytes.length) spans.push([from, bytes.length]);
  return bytes.subarray(spans[start - 1]![0], spans[Math.min(end, spans.length) - 1]![1]);
}

/** Everything a CGP answer of the demo provider must be, whatever the query. */
function checkFrames(query: { max_tokens: number; max_frames: number }, frames: Frame[]): void {
  expect(cgpAnswerViolations(query, frames as never)).toEqual([]);
  for (const frame of frames) {
    expect(cgpFrameViolations(frame as never)).toEqual([]);
    expect(frame.token_cost).toBe(canonicalTokenCost(frame.content));
    expect(frame.canonical_token_cost).toBe(countTokens(frame.content));
    expect(frame.tokenizer_ref).toBe("o200k_base");
    expect(frame.content_digest).toBe(sha256Digest(frame.content));
    expect(frame.valid_from).toBe(MTIME.toISOString());
    const [link] = frame.provenance;
    expect(link?.digest).toBe(sha256Digest(citedBytes(link!.uri, link!.range)));
  }
}

const QUERY = {
  goal: "retry policy backoff attempts",
  kinds: [],
  anchors: [],
  max_frames: 5,
  max_tokens: 400,
};

describe("the demo provider under contextgraph/1 over stdio (a real child process)", () => {
  let dir: string;
  let child: NdjsonChild;
  beforeAll(async () => {
    dir = corpus();
    child = ndjsonChild(process.execPath, [cli, "--quiet", dir]);
    child.send({ type: "handshake", protocol_version: CGP });
  });
  afterAll(() => {
    child.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it("H1/C5: acks contextgraph/1.0-draft, local-only, with verify", async () => {
    expect(strict(await child.next(60_000))).toMatchObject({
      protocol_version: CGP,
      provider: {
        name: "ocp-demo-provider",
        data_flow: { egress: false, egress_scopes: ["local-only"] },
      },
      capabilities: {
        verify: true,
        correlation: true,
        query: { kinds: ["doc", "symbol", "snippet"] },
      },
    });
  });

  it("B3/D1/F4/F5: frames cost ceil(bytes/4) (BPE kept as canonical_token_cost), digest their content and the exact cited bytes", async () => {
    child.send({ type: "query", id: "q1", query: QUERY });
    const reply = strict(await child.next());
    const frames = (reply.result as { frames: Frame[] }).frames;
    expect(frames.map((f) => f.id)).toContain("guide.md#L5-9");
    expect(frames.some((f) => f.content.includes("\r"))).toBe(true);
    checkFrames(QUERY, frames);
  });

  it("B1/B4: a small budget and max_frames are met by selection and exact parts, never an unaccounted cut", async () => {
    const query = { ...QUERY, max_frames: 1, max_tokens: 20 };
    child.send({ type: "query", query });
    const frames = (strict(await child.next()).result as { frames: Frame[] }).frames;
    expect(frames.length).toBe(1);
    checkFrames(query, frames);
  });

  it("as_of: content last modified after the pinned instant is not served; before it, it is", async () => {
    child.send({ type: "query", query: { ...QUERY, as_of: "2026-02-01T00:00:00Z" } });
    expect((strict(await child.next()).result as { frames: Frame[] }).frames).toEqual([]);
    child.send({ type: "query", query: { ...QUERY, as_of: "2026-04-01T00:00:00.000001Z" } });
    expect(
      (strict(await child.next()).result as { frames: Frame[] }).frames.length,
    ).toBeGreaterThan(0);
  });

  it("errors are CGP errors with their code: a kind it does not serve, a malformed line, an unknown envelope type", async () => {
    child.send({ type: "query", id: "k", query: { ...QUERY, kinds: ["fact", "widget"] } });
    expect(strict(await child.next())).toMatchObject({ id: "k", code: "unsupported_kind" });
    child.send("{not json");
    expect(strict(await child.next())).toMatchObject({ type: "error", code: "bad_request" });
    child.send({ type: "resolve", id: "r", request: { uri: "file:///etc/passwd" } });
    expect(strict(await child.next())).toMatchObject({ id: "r", code: "bad_request" });
  });

  it("V1–V4: verify from the files now: valid, stale with the new digest after an edit, gone after a delete; a path outside the corpus is unknown", async () => {
    child.send({ type: "query", query: QUERY });
    const frames = (strict(await child.next()).result as { frames: Frame[] }).frames;
    const guide = frames.find((f) => f.id.startsWith("guide.md#"))!;
    const retry = frames.find((f) => f.id.startsWith("retry.ts#"))!;
    const held = [guide, retry].map((f) => ({
      provider_id: "demo",
      frame_id: f.id,
      content_digest: f.content_digest,
    }));
    const verify = async () => {
      child.send({
        type: "verify",
        id: "v",
        request: {
          frames: [
            ...held,
            {
              provider_id: "demo",
              frame_id: "../../etc/passwd#L1-1",
              content_digest: guide.content_digest,
            },
          ],
        },
      });
      const reply = strict(await child.next()) as {
        response: { verdicts: Array<{ status: string; replacement_digest?: string }> };
      };
      return reply.response.verdicts;
    };
    expect((await verify()).map((v) => v.status)).toEqual(["valid", "valid", "unknown"]);
    writeFileSync(join(dir, "guide.md"), GUIDE.replace("double", "triple"));
    unlinkSync(join(dir, "retry.ts"));
    const after = await verify();
    expect(after.map((v) => v.status)).toEqual(["stale", "gone", "unknown"]);
    const lines = GUIDE.replace("double", "triple").split("\n");
    const [start, end] = /#L(\d+)-(\d+)$/.exec(guide.id)!.slice(1).map(Number) as [number, number];
    expect(after[0]?.replacement_digest).toBe(sha256Digest(lines.slice(start - 1, end).join("\n")));
  });
});

describe("the demo provider in both families over HTTP (a real server process)", () => {
  let dir: string;
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    dir = corpus();
    server = spawn(process.execPath, [cli, "--http", "0", "--quiet", dir], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    url = await new Promise<string>((resolve, reject) => {
      let seen = "";
      server.stderr?.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(seen);
        if (match?.[1]) resolve(match[1]);
      });
      server.once("exit", (code) => reject(new Error(`exited ${code}: ${seen}`)));
    });
  });
  afterAll(() => {
    server?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });
  const post = async (body: unknown, version: string) => {
    const response = await fetch(url, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", "ocp-protocol-version": version },
    });
    return (await response.json()) as Record<string, unknown>;
  };

  it("H1: the same server acks each family in its own version", async () => {
    expect(strict(await post({ type: "handshake", protocol_version: CGP }, CGP))).toMatchObject({
      protocol_version: CGP,
      capabilities: { verify: true },
    });
    expect(
      await post({ type: "handshake", protocol_version: "ocp/1.0-draft" }, "ocp/1.0-draft"),
    ).toMatchObject({
      protocol_version: "ocp/1.0-draft",
    });
  });

  it("CGP frames keep every CGP rule and verify; ocp/1 frames keep their BPE costs and no CGP member", async () => {
    const cgp = strict(await post({ type: "query", query: QUERY }, CGP));
    const frames = (cgp.result as { frames: Frame[] }).frames;
    checkFrames(QUERY, frames);
    const held = frames.map((f) => ({
      provider_id: "demo",
      frame_id: f.id,
      content_digest: f.content_digest,
    }));
    const verified = strict(await post({ type: "verify", request: { frames: held } }, CGP));
    expect(
      (verified.response as { verdicts: Array<{ status: string }> }).verdicts.every(
        (v) => v.status === "valid",
      ),
    ).toBe(true);
    const ocp = await post({ type: "query", query: QUERY }, "ocp/1.0-draft");
    const ocpFrames = (ocp.result as { frames: Frame[] }).frames;
    expect(ocpFrames.length).toBeGreaterThan(0);
    for (const frame of ocpFrames) {
      expect(frame.token_cost).toBe(countTokens(frame.content));
      expect(frame).not.toHaveProperty("content_digest");
      expect(frame).not.toHaveProperty("valid_from");
      expect(frame.provenance[0]?.uri).toBe(
        pathToFileURL(fileURLToPath(frame.provenance[0]!.uri)).href,
      );
    }
  });
});
