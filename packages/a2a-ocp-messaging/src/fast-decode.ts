import { type PlainFormCheck, plainFormCheck } from "@ocp/types/fast";
import type { z } from "zod";
import { isJsonObject } from "./json.js";
import { KnownMessageSchema } from "./messages.js";

/**
 * A fast path beside the message schema (issue 18), for the messages a hub
 * and an agent see most. A value already in the form the schema gives back
 * is taken as it is, without a schema pass; anything else (another type or
 * form, an own `__proto__` member, which the schema drops, a class instance,
 * any doubt) answers `false` and goes through the schema, so the verdict and
 * the value are the schema's in every case. It only reads its input, never
 * writes to it.
 *
 * The checks are compiled at start-up from the message schemas themselves
 * (`plainFormCheck` of `@ocp/types/fast`): members, bounds, patterns, enums
 * and the `.refine` of `ocp.collective.query` are read from the schema, so a
 * member added to a payload schema reaches this path with no second edit.
 */

/** The message types with a fast path: the ones a hub and an agent see most. */
export const FAST_MESSAGE_TYPES = [
  "ocp.knowledge.stream",
  "ocp.knowledge.update",
  "ocp.collective.query",
  "ocp.collective.response",
  "ocp.awareness.beacon",
] as const;

/**
 * The plain-form checks of `types`, one per variant of a discriminated
 * message schema (by its `type` literal): what {@link isPlainFastMessage}
 * runs, and what a test builds from an extended schema.
 */
export function fastMessageChecks(
  schema: { readonly options: readonly z.ZodObject[] },
  types: readonly string[],
): ReadonlyMap<unknown, PlainFormCheck> {
  const checks = new Map<unknown, PlainFormCheck>();
  for (const variant of schema.options) {
    const type = variant.shape["type"] as z.ZodLiteral | undefined;
    const value = type?.def.type === "literal" ? type.value : undefined;
    if (typeof value === "string" && types.includes(value)) {
      checks.set(value, plainFormCheck(variant));
    }
  }
  return checks;
}

/** The checks, compiled on first use (a process that never decodes a message pays nothing). */
let checks: ReadonlyMap<unknown, PlainFormCheck> | undefined;

/**
 * Whether `value` is a plain message of one of the fast-path types, already
 * in the form the message schema would return: when `true`, the schema
 * accepts it and its output equals it. `false` says nothing: the schema
 * decides.
 */
export function isPlainFastMessage(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  checks ??= fastMessageChecks(KnownMessageSchema, FAST_MESSAGE_TYPES);
  const check = checks.get(value["type"]);
  return check === undefined ? false : check(value);
}
