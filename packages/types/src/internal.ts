/**
 * `@ocp/types/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export { utf8ByteLength } from "./cgp/bytes.js";
export { parseJsonText } from "./codec.js";
export { type Deadline, Deadlines } from "./deadlines.js";
export { MAX_CORRELATION_ID_LENGTH } from "./envelope.js";
export { type JsonTextProblem, scanJsonText } from "./ijson.js";
export { isJsonObject } from "./json-object.js";
export { toJsonSchema } from "./json-schema.js";
export { NonEmptyStringSchema, U32_MAX, U32Schema } from "./primitives.js";
export { allowedTokens, ruleOf } from "./rules.js";
export { settlesWithin } from "./settles-within.js";
export { resolveTracer, type TracingOption } from "./tracer.js";
