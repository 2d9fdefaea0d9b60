import { z } from "zod";
import { MAX_AGENT_URI_LENGTH, MAX_ID_LENGTH } from "../limits.js";
import { AGENT_URI_PATTERN } from "../wire-patterns.js";

export { AGENT_URI_PATTERN } from "../wire-patterns.js";

/**
 * Building blocks shared by every payload. Objects are `z.looseObject`: a
 * field we do not know (an org-prefixed extension, §11.2) is kept, not
 * dropped or refused, so a decoded message still holds every byte the
 * sender signed and a newer minor version's additions pass through.
 */

/** An agent URI (`a2a://...`, §8.1). */
export const AgentUriSchema = z
  .string()
  .max(MAX_AGENT_URI_LENGTH)
  .regex(AGENT_URI_PATTERN, "must be an a2a:// agent URI")
  .meta({ id: "AgentUri", description: "An agent URI: a2a:// followed by URI characters." });

/** An identifier chosen by the sender (stream, node, query, proposal, sync ...). */
export const IdSchema = z.string().min(1).max(MAX_ID_LENGTH);

/** An ISO 8601 timestamp with `Z` or a numeric offset. */
export const TimestampSchema = z.iso
  .datetime({ offset: true })
  .meta({ id: "Timestamp", description: "ISO 8601 date-time with Z or a numeric offset." });

/** A number in [0, 1]: confidence, weight, relevance, threshold. */
export const UnitIntervalSchema = z
  .number()
  .min(0)
  .max(1)
  .meta({ id: "UnitInterval", description: "A number in [0, 1]." });

/** A count: a non-negative safe integer. */
export const CountSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A duration or size that may be fractional but never negative. */
export const NonNegativeSchema = z.number().min(0);

/** Free-form metadata (`Record<string, any>` in the specification). */
export const MetadataSchema = z.record(z.string(), z.unknown());

/** A non-empty string. */
export const TextSchema = z.string().min(1);
