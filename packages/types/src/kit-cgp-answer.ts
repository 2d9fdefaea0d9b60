/**
 * The provider kit under `contextgraph/1`: what a query is refused for before
 * the provider sees it (E1, P5, F4 `as_of`, kinds), and how the provider's
 * answer becomes a CGP answer that keeps every rule of the CGP rulebook
 * (`cgpFrameViolations`, `cgpAnswerViolations`): B3 costs, D1 digests, F4
 * timestamps, F5 file digests, P1–P4 shapes, `as_of`, then B1/B4 by
 * selection. A frame's content is never cut: a frame that does not fit is
 * left out whole.
 */
import { canonicalTokenCost, sha256Digest } from "./cgp/bytes.js";
import { isCgpTimestamp, isWellFormedDigest } from "./cgp/formats.js";
import { type CgpFrame, type CgpQueryResult, CgpQueryResultSchema } from "./cgp/frame.js";
import { embeddingFits } from "./cgp/handshake.js";
import { cgpAsOfViolations, cgpKindViolations, compareCgpTimestamps } from "./cgp/temporal.js";
import { cgpAnswerViolations, cgpFrameViolations, cgpQueryViolations } from "./cgp/violations.js";
import { type CgpErrorCode, isKnownFrameKind, type Representation } from "./cgp/vocabulary.js";
import { wireError } from "./errors.js";
import type { FrameKind } from "./frame.js";
import type { CheckedDeclarations } from "./kit-cgp-provider.js";
import { packFrames } from "./pack.js";
import type { ContextQuery } from "./query.js";

/** The members of a CGP query the kit reads (SPEC §5). */
export interface CgpQueryLike {
  readonly goal: string;
  readonly query_text?: string | null | undefined;
  readonly embedding?: readonly number[] | null | undefined;
  readonly kinds: readonly string[];
  readonly anchors: readonly string[];
  readonly max_frames: number;
  readonly max_tokens: number;
  readonly as_of?: string | null | undefined;
  readonly representation_preferences?: readonly string[] | null | undefined;
}

/** A refusal: the `error` a query gets instead of frames. */
export interface Refusal {
  readonly code: CgpErrorCode;
  readonly message: string;
}

/**
 * Why `query` is refused before the provider sees it, or `undefined`:
 * `as_of` outside the F4 profile (`bad_request`); an embedding whose length
 * contradicts the declared fingerprint, or any embedding when none is
 * declared (E1, `bad_request`); a representation not advertised (P5,
 * `unsupported_representation`); only kinds the provider does not serve
 * (`unsupported_kind`).
 */
export function refuseCgpQuery(
  query: CgpQueryLike,
  declared: CheckedDeclarations,
  servedKinds: readonly string[],
): Refusal | undefined {
  const [badAsOf] = cgpQueryViolations(query);
  if (badAsOf !== undefined) return { code: "bad_request", message: `F4: ${badAsOf.message}` };
  const embedding = query.embedding;
  if (embedding !== undefined && embedding !== null) {
    if (!embeddingFits(embedding, declared.embeddingsFingerprint)) {
      return {
        code: "bad_request",
        message:
          declared.embeddingsFingerprint === undefined
            ? "E1: this provider declares no embeddings_fingerprint, so a query embedding means nothing to it"
            : `E1: the query embedding has ${embedding.length} dimensions; this provider's fingerprint ${declared.embeddingsFingerprint} declares ${declared.dimensions}`,
      };
    }
  }
  const unadvertised = (query.representation_preferences ?? []).filter(
    (r) => !(declared.representations as readonly string[]).includes(r),
  );
  if (unadvertised.length > 0) {
    return {
      code: "unsupported_representation",
      message: `P5: this provider serves ${declared.representations.join(", ")} frames, not ${unadvertised.join(", ")}`,
    };
  }
  if (query.kinds.length > 0 && servedKinds.length > 0) {
    if (!query.kinds.some((kind) => servedKinds.includes(kind))) {
      return {
        code: "unsupported_kind",
        message: `this provider serves ${servedKinds.join(", ")} frames, not ${query.kinds.join(", ")}`,
      };
    }
  }
  return undefined;
}

/**
 * The query as a provider's `query` takes it: the CGP query itself (its
 * `as_of`, `representation_preferences` … kept), `kinds` narrowed to the
 * kinds this revision defines (an unknown kind can be served by nobody).
 */
export function providerQuery(query: CgpQueryLike): ContextQuery {
  const kinds = query.kinds.filter(isKnownFrameKind) as FrameKind[];
  return { ...query, kinds, anchors: [...query.anchors] } as ContextQuery;
}

/** Whether a frame was true at `asOf`: `valid_from <= asOf < valid_to`, where present. */
export function validAt(frame: Pick<CgpFrame, "valid_from" | "valid_to">, asOf: string): boolean {
  if (frame.valid_from && (compareCgpTimestamps(frame.valid_from, asOf) ?? 0) > 0) return false;
  if (frame.valid_to && (compareCgpTimestamps(frame.valid_to, asOf) ?? 1) <= 0) return false;
  return true;
}

const TIME_FIELDS = ["valid_from", "valid_to", "recorded_at"] as const;

/** F4: a parseable timestamp in another spelling, in the profile; `undefined` when unparseable. */
function inProfile(value: string): string | undefined {
  if (isCgpTimestamp(value)) return value;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Everything the kit computes for one frame, and what it had to repair; `undefined` when the frame must be left out. */
function liftFrame(
  original: CgpFrame,
  index: number,
  allowed: ReadonlySet<string>,
  problems: string[],
): CgpFrame | undefined {
  const frame: CgpFrame = { ...original };
  const name = `frame ${index} ("${frame.id}")`;
  const representation: Representation = frame.representation ?? "full";
  if (!allowed.has(representation)) {
    problems.push(`P5: ${name} is a ${representation} frame, not asked for: left out`);
    return undefined;
  }
  if (frame.id.trim() === "") {
    frame.id = `frame-${index + 1}`;
    problems.push(`${name}: empty id, set to "${frame.id}"`);
  }
  if (!Number.isFinite(frame.score) || frame.score < 0 || frame.score > 1) {
    const score = Number.isFinite(frame.score) ? Math.min(1, Math.max(0, frame.score)) : 0;
    problems.push(`F1: ${name}: score ${frame.score} set to ${score}`);
    frame.score = score;
  }
  const blank = (text: string | null | undefined) =>
    text === undefined || text === null || text.trim() === "";
  if (blank(frame.title)) {
    frame.title = blank(frame.citation_label) ? frame.id : (frame.citation_label as string);
    problems.push(`F2: ${name}: empty title, set to "${frame.title}"`);
  }
  if (blank(frame.citation_label)) {
    frame.citation_label = frame.title;
    problems.push(`F3: ${name}: empty citation_label, set to "${frame.title}"`);
  }
  for (const field of TIME_FIELDS) {
    const value = frame[field];
    if (value === undefined || value === null) continue;
    const fixed = inProfile(value);
    if (fixed === undefined) {
      problems.push(`F4: ${name}: ${field} "${value}" is not a timestamp: left out`);
      return undefined;
    }
    if (fixed !== value) {
      problems.push(`F4: ${name}: ${field} "${value}" set to "${fixed}"`);
      frame[field] = fixed;
    }
  }
  if (
    frame.provenance.some((entry) => entry.type === "file" && !isWellFormedDigest(entry.digest))
  ) {
    problems.push(
      `F5: ${name}: file provenance without a sha256 digest of the cited bytes: left out`,
    );
    return undefined;
  }
  frame.relations = frame.relations.flatMap((relation) => {
    if (relation.target_uri.trim() === "") {
      problems.push(`G2: ${name}: a "${relation.rel}" relation without target_uri: removed`);
      return [];
    }
    if (blank(relation.display_name)) {
      problems.push(
        `G1: ${name}: relation to ${relation.target_uri} without display_name: set to it`,
      );
      return [{ ...relation, display_name: relation.target_uri }];
    }
    return [relation];
  });
  if (representation === "reference") {
    // P3, P4: no inline bytes, no inline digest, no cost.
    delete frame.content;
    delete frame.content_digest;
    frame.token_cost = 0;
    return frame;
  }
  if (representation === "full") {
    for (const key of ["content_ref", "transform", "canonical_content_hash"] as const) {
      if (frame[key] !== undefined) {
        problems.push(`P1: ${name}: a full frame carries no ${key}: removed`);
        delete frame[key];
      }
    }
  }
  const content = frame.content ?? "";
  frame.content = content;
  const digest = sha256Digest(content);
  if (
    frame.content_digest !== undefined &&
    frame.content_digest !== null &&
    frame.content_digest !== digest
  ) {
    problems.push(
      `D1: ${name}: content_digest ${frame.content_digest} is not the digest of its content: set to ${digest}`,
    );
  }
  frame.content_digest = digest;
  frame.token_cost = canonicalTokenCost(content);
  if (frame.canonical_token_cost === undefined) delete frame.tokenizer_ref;
  return frame;
}

export interface CgpGuardOptions {
  /** `fix` (default) repairs and logs, `refuse` fails the query naming every problem, `off` sends the answer as it is. */
  readonly mode?: "fix" | "refuse" | "off";
  /** The kinds the provider declared; a frame of another kind is left out. */
  readonly declaredKinds?: readonly string[];
  readonly warn?: (message: string) => void;
}

/**
 * The CGP answer for a provider's raw answer to `query`. With `mode: "off"`
 * the answer as decoded; otherwise every frame made to keep the CGP rules
 * (see the module comment), frames not valid at `as_of` left out, and the
 * rest selected in the provider's order to fit `max_tokens` (B1, by their B3
 * costs) and `max_frames` (B4).
 *
 * @throws {OcpError} `internal` when the answer is not a query result, or
 *   (mode `refuse`) names every problem it would have had to fix.
 */
export function cgpAnswer(
  query: CgpQueryLike,
  raw: unknown,
  declared: CheckedDeclarations,
  options: CgpGuardOptions = {},
): CgpQueryResult {
  const decoded = CgpQueryResultSchema.safeParse(raw);
  if (!decoded.success) {
    throw wireError("internal", "the provider returned something that is not a query result");
  }
  const result = decoded.data;
  const mode = options.mode ?? "fix";
  if (mode === "off") return result;
  const problems: string[] = [];
  const asked = new Set(query.kinds);
  const kinds = new Set(options.declaredKinds ?? []);
  const allowed = new Set<string>(
    (query.representation_preferences ?? ["full"]).filter((r) =>
      (declared.representations as readonly string[]).includes(r),
    ),
  );
  const lifted: CgpFrame[] = [];
  result.frames.forEach((original, index) => {
    if (
      (asked.size > 0 && !asked.has(original.kind)) ||
      (kinds.size > 0 && !kinds.has(original.kind))
    ) {
      problems.push(
        `frame ${index} ("${original.id}") is a "${original.kind}", not asked for or not declared: left out`,
      );
      return;
    }
    const frame = liftFrame(original, index, allowed, problems);
    if (frame === undefined) return;
    const broken = cgpFrameViolations(frame);
    if (broken.length > 0) {
      problems.push(...broken.map((v) => `${v.rule}: frame ${index}: ${v.message}: left out`));
      return;
    }
    if (query.as_of && !validAt(frame, query.as_of)) return;
    lifted.push(frame);
  });
  if (lifted.length > query.max_frames) {
    problems.push(
      `B4: ${lifted.length} frames for max_frames ${query.max_frames}: the rest left out`,
    );
  }
  if (mode === "refuse" && problems.length > 0) {
    throw wireError("internal", `the provider's answer breaks the rules: ${problems.join("; ")}`, {
      details: { problems },
    });
  }
  for (const problem of problems) options.warn?.(`fixed an outgoing answer: ${problem}`);
  const packed = packFrames(lifted, query);
  const violations = [
    ...cgpAnswerViolations(query, packed.frames),
    ...cgpAsOfViolations(query, packed.frames),
    ...cgpKindViolations(query, packed.frames),
  ];
  if (violations.length > 0) {
    throw wireError(
      "internal",
      `the kit could not make the answer keep ${violations.map((v) => v.rule).join(", ")}`,
    );
  }
  const removed = result.frames.length - packed.frames.length;
  const truncated = result.truncated || removed > 0;
  const dropped = (result.dropped_estimate ?? 0) + removed;
  return dropped > 0
    ? { frames: packed.frames, truncated, dropped_estimate: dropped }
    : { frames: packed.frames, truncated };
}
