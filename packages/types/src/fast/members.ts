import { FramesEnvelopeSchema, QueryEnvelopeSchema } from "../envelope.js";
import {
  ContextQueryResultSchema,
  ContextQuerySchema,
  StrictContextQueryResultSchema,
} from "../query.js";
import { plainFormCheck } from "./derive.js";
import { memberCopier, wireWriter } from "./derive-writer.js";

/**
 * The fast paths of the hot messages (`query` and `frames`), each compiled
 * at start-up from the schema that defines the shape (`derive.ts`,
 * `derive-writer.ts`): a member added to `ContextQuerySchema`,
 * `ContextFrameSchema` or an envelope reaches the checks and the writers
 * with no second edit. `own` checks fill absent defaulted lists in place.
 */
function compileChecks() {
  return {
    query: plainFormCheck(ContextQuerySchema),
    ownQuery: plainFormCheck(ContextQuerySchema, { fill: true }),
    result: plainFormCheck(ContextQueryResultSchema),
    ownResult: plainFormCheck(ContextQueryResultSchema, { fill: true }),
    strictResult: plainFormCheck(StrictContextQueryResultSchema),
    ownStrictResult: plainFormCheck(StrictContextQueryResultSchema, { fill: true }),
    queryEnvelope: plainFormCheck(QueryEnvelopeSchema, { fill: true }),
    framesEnvelope: plainFormCheck(FramesEnvelopeSchema, { fill: true }),
  } as const;
}

function compileWriters() {
  return {
    query: wireWriter(ContextQuerySchema),
    framesEnvelope: wireWriter(FramesEnvelopeSchema),
    /** The `query` envelope around a query already encoded. */
    queryEnvelope: wireWriter(QueryEnvelopeSchema, ["query"]),
    /** A query's members copied (what `sealQuery` freezes). */
    copyQuery: memberCopier(ContextQuerySchema),
  } as const;
}

let checks: ReturnType<typeof compileChecks> | undefined;
let writers: ReturnType<typeof compileWriters> | undefined;

/** The checks, compiled on first use (a process that never decodes pays nothing). */
export const plain = (): ReturnType<typeof compileChecks> => (checks ??= compileChecks());

/** The writers (each undefined where code cannot be compiled: the schema's encoder is used). */
export const write = (): ReturnType<typeof compileWriters> => (writers ??= compileWriters());

/** The members of a query, in declaration order (what `sealQuery` copies). */
export const QUERY_MEMBERS: readonly string[] = Object.keys(ContextQuerySchema.shape);

export type Obj = Record<string, unknown>;
