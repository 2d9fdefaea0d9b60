import { z } from "zod";

/**
 * What the fast paths read from a zod schema, through zod's public API only:
 * the classic schema's `def` (type, shape, catchall, options, element,
 * inner type, default value, checks) and, for the bounds and patterns of a
 * leaf (string, number, array), `z.toJSONSchema`. Anything this module does
 * not know is `undefined`, which the compilers turn into "not on the fast
 * path" (the schema decides), never into a guess.
 */

/** The members of a classic schema's `def` the compilers read. */
export interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
  readonly defaultValue?: unknown;
  readonly checks?: readonly unknown[];
  readonly fn?: unknown;
  readonly format?: string;
}

export const defOf = (schema: z.ZodType): SchemaDef => schema.def as unknown as SchemaDef;

/** Bounds and patterns of a string, number or array, as its JSON Schema states them. */
export interface Leaf {
  readonly integer: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly patterns: readonly RegExp[];
}

type Json = Record<string, unknown>;

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

// The checks whose whole meaning JSON Schema states (bounds, integer, pattern): a schema holding
// any other (a refinement, a string format zod checks by code, a multipleOf) is not a leaf.
const STATED = [
  z.core.$ZodCheckMinLength,
  z.core.$ZodCheckMaxLength,
  z.core.$ZodCheckLengthEquals,
  z.core.$ZodCheckRegex,
  z.core.$ZodCheckGreaterThan,
  z.core.$ZodCheckLessThan,
  z.core.$ZodCheckNumberFormat,
] as const;
const stated = (check: unknown): boolean => STATED.some((kind) => check instanceof kind);

/** The JSON Schema of `schema` itself, a `$ref` to its own `$defs` entry resolved. */
function jsonSchemaOf(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  const ref = json["$ref"];
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const defs = json["$defs"] as Record<string, Json> | undefined;
    return defs?.[ref.slice("#/$defs/".length)] ?? {};
  }
  return json;
}

/**
 * The bounds of a string, number or array schema; undefined when it holds a
 * check JSON Schema does not state, or is a string format other than a
 * pattern zod checks by that pattern alone (`regex`, ISO `datetime`).
 */
export function leafOf(schema: z.ZodType): Leaf | undefined {
  if (LEAVES.has(schema)) return LEAVES.get(schema);
  const leaf = readLeaf(schema);
  LEAVES.set(schema, leaf);
  return leaf;
}

/** Leaves already read: the same schema (an id, a URI) is a member of many shapes. */
const LEAVES = new WeakMap<z.ZodType, Leaf | undefined>();
const NO_BOUNDS: Leaf = { integer: false, patterns: [] };

function readLeaf(schema: z.ZodType): Leaf | undefined {
  const def = defOf(schema);
  if (def.type === "string" && def.format !== undefined) {
    if (def.format !== "regex" && def.format !== "datetime") return undefined;
  } else if (schema instanceof z.core.$ZodStringFormat) return undefined;
  const checks = def.checks ?? [];
  if (!checks.every(stated)) return undefined;
  if (checks.length === 0 && def.format === undefined) return NO_BOUNDS;
  // An array's bounds without its element's JSON Schema (which may be a whole shape).
  const json = jsonSchemaOf(
    def.type === "array"
      ? z.array(z.unknown()).check(...(checks as z.core.$ZodCheck<unknown[]>[]))
      : schema,
  );
  if (json["multipleOf"] !== undefined) return undefined;
  const patterns: RegExp[] = [];
  const pattern = json["pattern"];
  if (typeof pattern === "string") patterns.push(new RegExp(pattern));
  for (const part of (json["allOf"] as Json[] | undefined) ?? []) {
    const keys = Object.keys(part);
    if (keys.length !== 1 || typeof part["pattern"] !== "string") return undefined;
    patterns.push(new RegExp(part["pattern"]));
  }
  const length = (name: string, items: string) => num(json[name]) ?? num(json[items]);
  return {
    integer: json["type"] === "integer",
    minimum: num(json["minimum"]),
    maximum: num(json["maximum"]),
    exclusiveMinimum: num(json["exclusiveMinimum"]),
    exclusiveMaximum: num(json["exclusiveMaximum"]),
    minLength: length("minLength", "minItems"),
    maxLength: length("maxLength", "maxItems"),
    patterns,
  };
}

/**
 * The one refinement of an object schema as a predicate on its (already
 * structurally checked) value: the function its `.refine` holds, read from
 * the refinement's own public `def`. Undefined when there is none; "unknown"
 * when the object holds a check that is not a plain `.refine`.
 */
export function refinementOf(
  schema: z.ZodType,
): ((value: unknown) => unknown) | "unknown" | undefined {
  const checks = defOf(schema).checks ?? [];
  if (checks.length === 0) return undefined;
  if (checks.length > 1) return "unknown";
  const check = checks[0];
  if (!(check instanceof z.ZodCustom)) return "unknown";
  const def = defOf(check) as SchemaDef & { when?: unknown; abort?: unknown };
  if (typeof def.fn !== "function" || def.when !== undefined) return "unknown";
  return def.fn as (value: unknown) => unknown;
}

/**
 * Whether a value the schema accepts always comes back deep-equal: no
 * default, no stripped member, no transform. A union of such schemas gives
 * back whichever option accepts first, so any accepting option vouches for it.
 */
export function keepsValue(schema: z.ZodType, visiting: Set<z.ZodType> = new Set()): boolean {
  if (visiting.has(schema)) return false; // a cycle: not followed
  visiting.add(schema);
  try {
    return keeps(defOf(schema), visiting);
  } finally {
    visiting.delete(schema);
  }
}

function keeps(def: SchemaDef, visiting: Set<z.ZodType>): boolean {
  switch (def.type) {
    case "string":
    case "number":
    case "boolean":
    case "literal":
    case "enum":
    case "unknown":
    case "any":
    case "never":
    case "null":
      return true;
    case "optional":
    case "nullable":
      return keepsValue(def.innerType!, visiting);
    case "array":
      return keepsValue(def.element!, visiting);
    case "record":
      return keepsValue(def.valueType!, visiting);
    case "union":
      return def.options!.every((option) => keepsValue(option, visiting));
    case "object": {
      const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
      if (catchall !== "unknown" && catchall !== "never") return false;
      return Object.values(def.shape!).every((member) => keepsValue(member, visiting));
    }
    default:
      return false;
  }
}
