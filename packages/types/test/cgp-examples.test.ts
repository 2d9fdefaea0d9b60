/**
 * Our own `contextgraph/1.0-draft` examples (examples/contextgraph): every
 * line decodes on the interop path, passes our authoring schema and
 * upstream's published JSON Schema, and every answer is honest by our
 * rulebook (digests recomputed from the content they claim).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  type CgpEnvelope,
  CgpStrictEnvelopeSchema,
  cgpAnswerViolations,
  cgpEnvelopeJsonSchema,
  decodeCgpLine,
  scopesConsistent,
  sha256Digest,
} from "../src/cgp/index.js";
import { compileSchema } from "./helpers.js";

const examples = new URL("../../../examples/contextgraph/", import.meta.url);
const upstream = compileSchema(
  JSON.parse(
    readFileSync(
      fileURLToPath(
        new URL(
          "./vectors/contextgraph-1.0-draft/contextgraph-envelope.schema.json",
          import.meta.url,
        ),
      ),
      "utf8",
    ),
  ) as object,
);
const ours = compileSchema(cgpEnvelopeJsonSchema());

const files = readdirSync(examples)
  .filter((f) => f.endsWith(".ndjson"))
  .sort();

function lines(file: string): string[] {
  return readFileSync(fileURLToPath(new URL(file, examples)), "utf8")
    .split("\n")
    .filter(Boolean);
}

function decoded(file: string): CgpEnvelope[] {
  return lines(file).map((line) => {
    const result = decodeCgpLine(line);
    if (!result.ok || result.envelope.type === "unknown") throw new Error(`${file}: ${line}`);
    return result.envelope;
  });
}

describe("examples/contextgraph", () => {
  it("holds the session, egress, error and version-mismatch transcripts", () => {
    expect(files).toEqual([
      "egress-scopes-handshake.ndjson",
      "error-incompatible-version.ndjson",
      "errors.ndjson",
      "full-stdio-session.ndjson",
    ]);
  });

  for (const file of files) {
    it(`${file}: every line decodes and passes our authoring schema, our JSON Schema and upstream's`, () => {
      for (const line of lines(file)) {
        const value = JSON.parse(line) as unknown;
        expect(decodeCgpLine(line).ok, line).toBe(true);
        expect(CgpStrictEnvelopeSchema.safeParse(value).error?.issues ?? [], line).toEqual([]);
        expect(ours(value), line).toBe(true);
        expect(upstream(value), line).toBe(true);
      }
    });

    it(`${file}: every answer keeps the rulebook against its own query; digests match their bytes; scopes are consistent`, () => {
      const envelopes = decoded(file);
      for (const envelope of envelopes) {
        if (envelope.type === "handshake_ack") {
          expect(scopesConsistent(envelope.provider.data_flow)).toBe(true);
        }
        if (envelope.type !== "frames") continue;
        const query = envelopes.find((e) => e.type === "query" && e.id === envelope.id);
        if (query?.type !== "query")
          throw new Error(`${file}: frames ${envelope.id} answer no query`);
        expect(cgpAnswerViolations(query.query, envelope.result)).toEqual([]);
        for (const frame of envelope.result.frames) {
          expect(frame.content_digest).toBe(sha256Digest(frame.content ?? ""));
        }
      }
    });
  }

  it("full-stdio-session: verified answers exactly the identities verify asked about, by identity", () => {
    const envelopes = decoded("full-stdio-session.ndjson");
    const verify = envelopes.find((e) => e.type === "verify");
    const verified = envelopes.find((e) => e.type === "verified");
    const frames = envelopes.find((e) => e.type === "frames");
    if (verify?.type !== "verify" || verified?.type !== "verified" || frames?.type !== "frames") {
      throw new Error("the session lacks verify, verified or frames");
    }
    expect(verified.response.verdicts.map((v) => v.frame)).toEqual(verify.request.frames);
    expect(verify.request.frames.map((f) => f.content_digest)).toEqual(
      frames.result.frames.map((f) => f.content_digest),
    );
    expect(verified.response.verdicts.map((v) => v.status)).toEqual(["valid", "stale"]);
  });
});
