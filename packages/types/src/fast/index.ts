/**
 * The fast path of the Open Context wire beside its schema: ordinary `query`
 * and `frames` messages decoded and encoded without zod, with the same
 * values, errors and bytes as the schema and encoder (property tests in
 * `test/fast.test.ts`). Used by `@ocp/transport-stdio`,
 * `@ocp/transport-http` and (`membersKept`) `@ocp/a2a-ocp-messaging`; anything
 * not plain takes the schema path.
 */
export {
  decodeEnvelopeFast,
  decodeLineFast,
  isPlainQuery,
  isPlainResult,
  MAX_WALK_DEPTH,
  meetsStrictRules,
  membersKept,
  type PlainResult,
  parseJsonFast,
} from "./canonical.js";
export {
  type PlainFormCheck,
  type PlainFormOptions,
  type PlainFormSource,
  plainFormCheck,
  plainFormSource,
} from "./derive.js";
export { type WireWriter, wireWriter } from "./derive-writer.js";
export {
  encodeFramesLine,
  encodeQueryJson,
  sealQuery,
  writeFramesLine,
  writeQueryJson,
  writeQueryLine,
} from "./wire.js";
