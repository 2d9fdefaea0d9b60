/**
 * Upstream's published vectors for `contextgraph/1.0-draft` (vendored
 * unchanged under test/vectors/contextgraph-1.0-draft, see its SOURCE.md),
 * run against our schemas, decoder, canonical form and rulebook.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  CgpFrameSchema,
  CgpQuerySchema,
  CgpStrictEnvelopeSchema,
  canonicalJson,
  cgpAnswerViolations,
  cgpEnvelopeJsonSchema,
  cgpFrameViolations,
  decodeCgpEnvelope,
  decodeCgpLine,
  sha256Digest,
} from "../src/cgp/index.js";
import { compileSchema } from "./helpers.js";

const dir = new URL("./vectors/contextgraph-1.0-draft/", import.meta.url);
const bytes = (name: string) => readFileSync(fileURLToPath(new URL(name, dir)));
const json = (name: string) => JSON.parse(bytes(name).toString("utf8")) as unknown;

const upstreamSchema = compileSchema(json("contextgraph-envelope.schema.json") as object);
const ourSchema = compileSchema(cgpEnvelopeJsonSchema());

interface Manifest {
  protocol_version: string;
  files: Record<string, string>;
}
const manifest = json("fixtures/manifest.json") as Manifest;

function referenceMessages(): [string, unknown][] {
  const list = (json("reference-messages.json") as unknown[]).map(
    (m, i) => [`reference-messages.json[${i}]`, m] as [string, unknown],
  );
  const lines = bytes("full-stdio-session.ndjson")
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map(
      (line, i) => [`full-stdio-session.ndjson:${i + 1}`, JSON.parse(line)] as [string, unknown],
    );
  return [...list, ...lines];
}

describe("upstream's fixture manifest", () => {
  it("names contextgraph/1.0-draft and every fixture in the directory, each with its exact SHA-256", () => {
    expect(manifest.protocol_version).toBe("contextgraph/1.0-draft");
    const present = readdirSync(new URL("fixtures/", dir)).filter((f) => f !== "manifest.json");
    expect(Object.keys(manifest.files).sort()).toEqual(present.sort());
    for (const [name, digest] of Object.entries(manifest.files)) {
      expect(sha256Digest(bytes(`fixtures/${name}`)), name).toBe(digest);
    }
  });
});

describe("upstream's example messages", () => {
  const messages = referenceMessages();
  it("covers every envelope type but none unknown (19 messages)", () => {
    expect(messages).toHaveLength(19);
    expect(new Set(messages.map(([, m]) => (m as { type: string }).type))).toEqual(
      new Set([
        "handshake",
        "handshake_ack",
        "query",
        "frames",
        "verify",
        "verified",
        "shutdown",
        "error",
      ]),
    );
  });

  for (const [where, message] of messages) {
    it(`${where} decodes, passes our authoring schema, our generated JSON Schema and upstream's`, () => {
      const decoded = decodeCgpEnvelope(message);
      expect(decoded.ok, JSON.stringify(decoded)).toBe(true);
      expect(CgpStrictEnvelopeSchema.safeParse(message).error?.issues ?? []).toEqual([]);
      expect(ourSchema(message)).toBe(true);
      expect(upstreamSchema(message)).toBe(true);
    });
  }

  it("each transcript line decodes through decodeCgpLine as the same envelope", () => {
    for (const line of bytes("full-stdio-session.ndjson")
      .toString("utf8")
      .split("\n")
      .filter(Boolean)) {
      const decoded = decodeCgpLine(line);
      expect(decoded).toEqual(decodeCgpEnvelope(JSON.parse(line)));
    }
  });

  it("the stdio session's answer keeps every frame rule, B1 and B4 against its own query", () => {
    const lines = bytes("full-stdio-session.ndjson").toString("utf8").split("\n").filter(Boolean);
    const query = JSON.parse(lines[2]!).query;
    const frames = JSON.parse(lines[3]!).result.frames;
    expect(cgpAnswerViolations(query, frames)).toEqual([]);
  });

  it("the reference list's placeholder digests are what D1 exists to catch", () => {
    const frames = (
      json("reference-messages.json") as { type: string; result?: { frames: unknown[] } }[]
    )
      .filter((m) => m.type === "frames")
      .flatMap((m) => m.result!.frames) as Parameters<typeof cgpFrameViolations>[0][];
    const d1 = frames.flatMap(cgpFrameViolations).filter((v) => v.rule === "D1");
    expect(d1.map((v) => v.frameId)).toEqual([
      "repo-graph:retry-doc",
      "repo-graph:retry-sym",
      "cloud-docs:runbook-compact",
    ]);
  });
});

type Case = {
  name: string;
  source: unknown;
  expected_normalized: unknown;
  expected_jcs_utf8: string;
  sha256: string;
};

function normalizationCases(file: string, schema: z.ZodType) {
  describe(`${file}: normalize, canonicalize, digest`, () => {
    for (const c of (json(`fixtures/${file}`) as { cases: Case[] }).cases) {
      it(`${c.name}: our decoder normalizes the source to expected_normalized, whose JCS bytes and SHA-256 match`, () => {
        const normalized = schema.parse(c.source);
        expect(normalized).toEqual(c.expected_normalized);
        expect(canonicalJson(normalized)).toBe(c.expected_jcs_utf8);
        expect(sha256Digest(c.expected_jcs_utf8)).toBe(c.sha256);
      });
    }
  });
}
normalizationCases("context-query.valid.json", CgpQuerySchema);
normalizationCases("context-frame.valid.json", CgpFrameSchema);
