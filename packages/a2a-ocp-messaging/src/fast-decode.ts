import { BROADCAST, MESSAGE_ID_PATTERN, PRIORITIES } from "./envelope.js";
import { MAX_AGENT_URI_LENGTH, MAX_ID_LENGTH, MAX_RECIPIENTS, MAX_TTL_SECONDS } from "./limits.js";
import { AVAILABILITIES, AWARENESS_STATUSES } from "./payloads/awareness.js";
import { AGENT_URI_PATTERN, TimestampSchema } from "./payloads/common.js";
import { NodeUpdateSchema, VISIBILITIES } from "./payloads/knowledge.js";
import { PROTOCOL, SEMVER_PATTERN } from "./version.js";

/**
 * A fast path beside the message schema (issue 18), for the messages a hub
 * and an agent see most: plain `ocp.knowledge.stream` (one chunk),
 * `ocp.knowledge.update`, `ocp.collective.query`, `ocp.collective.response`
 * and `ocp.awareness.beacon`. A value already in the
 * form the schema gives back — plain objects and arrays, each known member
 * of its type and in its range, formats checked with the schema's own
 * patterns — is taken as it is, without a schema pass. Anything else (another
 * type or form, an own `__proto__` member, which the schema strips, a symbol
 * or hidden key, a class instance, any doubt) answers `false` and goes
 * through the schema, so the verdict and the value are the schema's in every
 * case. It only reads its input, never writes to it.
 */

type Obj = Record<string, unknown>;

/** The regular expression a zod string format checks with, read from the schema itself. */
function patternOf(schema: { _zod: { def: { pattern?: RegExp | undefined } } }): RegExp {
  const pattern = schema._zod.def.pattern;
  if (pattern === undefined) throw new Error("fast decode: a string format without its pattern");
  return pattern;
}

/**
 * `SIGNATURE_PATTERN` of the envelope (86 base64 characters then `==`) as a length test
 * and a pattern without the counted repetition, which costs irregexp twice as
 * much: at length 88 the two accept the same strings.
 */
const SIGNATURE_BODY = /^[A-Za-z0-9+/]*==$/;
const isSignature = (value: unknown): boolean =>
  typeof value === "string" && value.length === 88 && SIGNATURE_BODY.test(value);
const TIMESTAMP_PATTERN = patternOf(TimestampSchema);
const PRIORITY_SET: ReadonlySet<unknown> = new Set(PRIORITIES);
const VISIBILITY_SET: ReadonlySet<unknown> = new Set(VISIBILITIES);
const STATUS_SET: ReadonlySet<unknown> = new Set(AWARENESS_STATUSES);
const AVAILABILITY_SET: ReadonlySet<unknown> = new Set(AVAILABILITIES);
const CHANGE_TYPES: ReadonlySet<unknown> = new Set(NodeUpdateSchema.shape.changeType.options);

/**
 * A plain object as the schema's output has it: the plain prototype and no
 * own `__proto__` (the schema strips it). What JSON cannot hold — symbol or
 * non-enumerable keys, named members on an array — is not looked for: it
 * changes no verdict here (the shape's reads and `for...in` never see it),
 * only which members the schema's copy would keep.
 */
function isPlain(value: unknown): value is Obj {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, "__proto__")
  );
}

/** A plain array whose every element passes `check`. */
function isArrayOf(value: unknown, check: (element: unknown) => boolean): value is unknown[] {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return false;
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
  return true;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isText = (value: unknown): boolean => typeof value === "string" && value.length > 0;
const isId = (value: unknown): boolean =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_ID_LENGTH;
const isAgentUri = (value: unknown): boolean =>
  typeof value === "string" &&
  value.length <= MAX_AGENT_URI_LENGTH &&
  AGENT_URI_PATTERN.test(value);
const isTimestamp = (value: unknown): boolean =>
  typeof value === "string" && TIMESTAMP_PATTERN.test(value);
const isUnit = (value: unknown): boolean => typeof value === "number" && value >= 0 && value <= 1;
/** A safe integer in [min, max] (`z.number().int()` refuses integers beyond the safe range). */
const isIntIn = (value: unknown, min: number, max: number): boolean =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
const isCount = (value: unknown): boolean => isIntIn(value, 0, Number.MAX_SAFE_INTEGER);
const isOptionalString = (value: unknown): boolean => value === undefined || isString(value);
/** `NonNegativeSchema`: a finite number ≥ 0 (`z.number()` refuses the infinities). */
const isNonNegative = (value: unknown): boolean =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;
const isStrings = (value: unknown): boolean => isArrayOf(value, isString);
const isIds = (value: unknown): boolean => isArrayOf(value, isId);

/**
 * `MetadataSchema`, a record of any values: a plain object without symbol
 * keys (the record's key schema would refuse an enumerable one), its values
 * taken as they are.
 */
const isMetadata = (value: unknown): boolean =>
  isPlain(value) && Object.getOwnPropertySymbols(value).length === 0;
const isOptionalMetadata = (value: unknown): boolean => value === undefined || isMetadata(value);

/** `KnowledgeNodeSchema`, or its `.partial()` form (every member optional). */
function isNode(value: unknown, partial: boolean): boolean {
  if (!isPlain(value)) return false;
  const need = (v: unknown, check: (v: unknown) => boolean) =>
    (partial && v === undefined) || check(v);
  return (
    need(value["id"], isId) &&
    need(value["type"], isText) &&
    need(value["title"], isString) &&
    isOptionalString(value["description"]) &&
    // `data` is z.unknown(): anything, but a full node must have the member.
    (partial || Object.hasOwn(value, "data")) &&
    need(value["confidence"], isUnit) &&
    need(value["timestamp"], isTimestamp) &&
    need(value["createdBy"], isAgentUri) &&
    need(value["tags"], isStrings) &&
    isOptionalMetadata(value["metadata"]) &&
    (value["visibility"] === undefined || VISIBILITY_SET.has(value["visibility"])) &&
    (value["sharedWith"] === undefined || isArrayOf(value["sharedWith"], isAgentUri))
  );
}

const isFullNode = (value: unknown): boolean => isNode(value, false);

/** `KnowledgeEdgeSchema`. */
function isEdge(value: unknown): boolean {
  return (
    isPlain(value) &&
    isId(value["id"]) &&
    isId(value["source"]) &&
    isId(value["target"]) &&
    isText(value["relationship"]) &&
    isUnit(value["weight"]) &&
    isOptionalMetadata(value["metadata"])
  );
}

/** `KnowledgeStreamPayloadSchema`: one chunk, not a batch. */
function isStreamPayload(payload: Obj): boolean {
  const batched = payload["batched"];
  return (
    (batched === undefined || batched === false) &&
    isId(payload["streamId"]) &&
    isArrayOf(payload["nodes"], isFullNode) &&
    (payload["edges"] === undefined || isArrayOf(payload["edges"], isEdge)) &&
    typeof payload["isIncremental"] === "boolean" &&
    isCount(payload["sequenceNumber"]) &&
    (payload["checksum"] === undefined || isText(payload["checksum"]))
  );
}

/** `NodeUpdateSchema`. */
function isNodeUpdate(value: unknown): boolean {
  return (
    isPlain(value) &&
    isId(value["nodeId"]) &&
    isNode(value["changes"], true) &&
    CHANGE_TYPES.has(value["changeType"])
  );
}

/** `KnowledgeUpdatePayloadSchema`. */
function isUpdatePayload(payload: Obj): boolean {
  return (
    isArrayOf(payload["updates"], isNodeUpdate) &&
    isIds(payload["deletions"]) &&
    isArrayOf(payload["newEdges"], isEdge) &&
    isIds(payload["deletedEdges"])
  );
}

/** `CollectiveQueryPayloadSchema`, with its refinement minResponses ≤ maxResponses. */
function isQueryPayload(payload: Obj): boolean {
  const structured = payload["structuredQuery"];
  if (structured !== undefined) {
    if (
      !isPlain(structured) ||
      !isText(structured["intent"]) ||
      !isStrings(structured["domains"]) ||
      !isStrings(structured["keywords"]) ||
      !isOptionalMetadata(structured["filters"])
    ) {
      return false;
    }
  }
  const min = payload["minResponses"];
  const max = payload["maxResponses"];
  return (
    isId(payload["queryId"]) &&
    isText(payload["query"]) &&
    isIntIn(payload["timeout"], 1, Number.MAX_SAFE_INTEGER) &&
    (min === undefined || isIntIn(min, 1, Number.MAX_SAFE_INTEGER)) &&
    (max === undefined || isIntIn(max, 1, Number.MAX_SAFE_INTEGER)) &&
    (min === undefined || max === undefined || (min as number) <= (max as number))
  );
}

/** `QueryFindingSchema`. */
function isFinding(value: unknown): boolean {
  return (
    isPlain(value) &&
    isFullNode(value["node"]) &&
    isUnit(value["relevance"]) &&
    isOptionalString(value["excerpt"]) &&
    isOptionalString(value["context"])
  );
}

/** `CollectiveResponsePayloadSchema`. */
function isResponsePayload(payload: Obj): boolean {
  const metadata = payload["metadata"];
  return (
    isId(payload["queryId"]) &&
    isArrayOf(payload["findings"], isFinding) &&
    isUnit(payload["confidence"]) &&
    isNonNegative(payload["processingTime"]) &&
    (metadata === undefined ||
      (isPlain(metadata) &&
        isCount(metadata["nodesSearched"]) &&
        isArrayOf(metadata["relevanceScores"], isUnit)))
  );
}

/** `AwarenessBeaconPayloadSchema`. */
function isBeaconPayload(payload: Obj): boolean {
  const context = payload["currentContext"];
  return (
    STATUS_SET.has(payload["status"]) &&
    AVAILABILITY_SET.has(payload["availability"]) &&
    (context === undefined ||
      (isPlain(context) &&
        isOptionalString(context["task"]) &&
        isOptionalString(context["file"]) &&
        isOptionalString(context["project"]) &&
        isOptionalString(context["blockedOn"]))) &&
    isOptionalMetadata(payload["metadata"])
  );
}

const PAYLOAD_CHECKS: ReadonlyMap<unknown, (payload: Obj) => boolean> = new Map([
  ["ocp.knowledge.stream", isStreamPayload],
  ["ocp.knowledge.update", isUpdatePayload],
  ["ocp.collective.query", isQueryPayload],
  ["ocp.collective.response", isResponsePayload],
  ["ocp.awareness.beacon", isBeaconPayload],
]);

/** `to`: `"broadcast"`, one agent URI, or 1 to MAX_RECIPIENTS of them. */
function isRecipients(value: unknown): boolean {
  if (value === BROADCAST) return true;
  if (typeof value === "string") return isAgentUri(value);
  return (
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= MAX_RECIPIENTS &&
    isArrayOf(value, isAgentUri)
  );
}

/** The §4.1 envelope of a plain message (`envelopeFields` and `plainFields`). */
function isPlainEnvelope(message: Obj): boolean {
  const version = message["version"];
  const ttl = message["ttl"];
  const correlation = message["correlation_id"];
  const replyTo = message["reply_to"];
  const priority = message["priority"];
  const signature = message["signature"];
  const encrypted = message["encrypted"];
  return (
    message["protocol"] === PROTOCOL &&
    typeof version === "string" &&
    SEMVER_PATTERN.test(version) &&
    typeof message["id"] === "string" &&
    MESSAGE_ID_PATTERN.test(message["id"]) &&
    isAgentUri(message["from"]) &&
    isRecipients(message["to"]) &&
    isTimestamp(message["timestamp"]) &&
    (ttl === undefined || isIntIn(ttl, 1, MAX_TTL_SECONDS)) &&
    (correlation === undefined || isId(correlation)) &&
    (replyTo === undefined ||
      (typeof replyTo === "string" &&
        replyTo.length >= 1 &&
        replyTo.length <= MAX_AGENT_URI_LENGTH)) &&
    (priority === undefined || PRIORITY_SET.has(priority)) &&
    (signature === undefined || isSignature(signature)) &&
    (encrypted === undefined || encrypted === false) &&
    message["compression"] === undefined &&
    message["compressedPayload"] === undefined
  );
}

/**
 * Whether `value` is a plain message of one of the fast-path types, already
 * in the form the message schema would return: when `true`, the schema
 * accepts it and its output equals it. `false` says nothing: the schema
 * decides.
 */
export function isPlainFastMessage(value: unknown): boolean {
  if (!isPlain(value)) return false;
  const check = PAYLOAD_CHECKS.get(value["type"]);
  if (check === undefined) return false;
  const payload = value["payload"];
  return isPlain(payload) && isPlainEnvelope(value) && check(payload);
}
