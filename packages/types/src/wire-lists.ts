import type { z } from "zod";

/**
 * The lists the Rust reference leaves off the wire when they are empty (a
 * query's `kinds` and `anchors`, a frame's `provenance` and `relations`),
 * marked where the schema defines them with {@link omittedWhenEmpty}. The
 * encoders read the marks from the schemas (`toWire` through
 * {@link omittedListsByType}, the wire writers of `@ocp/types/fast` through
 * {@link isOmittedWhenEmpty}), so a list marked in its schema reaches both
 * with no second edit.
 */
const MARKED = new WeakSet<z.ZodType>();

/** Marks a list member of an object schema as left off the wire when empty; returns it. */
export function omittedWhenEmpty<T extends z.ZodType>(list: T): T {
  MARKED.add(list);
  return list;
}

/** The parts of a classic zod schema's `def` the walk below reads. */
interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly valueType?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly getter?: () => z.ZodType;
  readonly values?: readonly unknown[];
}

const defOf = (schema: z.ZodType): Def => schema.def as unknown as Def;

/** Wrappers that hold one schema and change only absence or defaults. */
const WRAPPERS = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "nonoptional",
  "readonly",
]);

/** Whether a member is marked {@link omittedWhenEmpty}, on itself or inside its wrappers. */
export function isOmittedWhenEmpty(member: z.ZodType): boolean {
  for (let schema: z.ZodType | undefined = member; schema !== undefined; ) {
    if (MARKED.has(schema)) return true;
    const def = defOf(schema);
    schema = WRAPPERS.has(def.type) ? def.innerType : undefined;
  }
  return false;
}

function isList(member: z.ZodType): boolean {
  let def = defOf(member);
  while (WRAPPERS.has(def.type) && def.innerType !== undefined) def = defOf(def.innerType);
  return def.type === "array";
}

/**
 * The names of the lists marked {@link omittedWhenEmpty} anywhere in
 * `schema`, found by walking it once (objects, lists, records, tuples,
 * unions, intersections, pipes, lazy schemas and their wrappers).
 *
 * @throws {Error} when a marked member is not a list, or when a marked name
 * also names an unmarked member elsewhere in `schema`: `toWire` omits empty
 * lists by name, so that member would lose its empty lists too.
 */
export function omittedListNames(schema: z.ZodType): ReadonlySet<string> {
  const marked = new Set<string>();
  const unmarked = new Set<string>();
  const seen = new Set<z.ZodType>();
  const visit = (node: z.ZodType | null | undefined): void => {
    if (node === undefined || node === null || seen.has(node)) return;
    seen.add(node);
    const def = defOf(node);
    if (def.type === "object") {
      for (const [key, member] of Object.entries(def.shape ?? {})) {
        if (!isOmittedWhenEmpty(member)) unmarked.add(key);
        else if (isList(member)) marked.add(key);
        else throw new Error(`omittedWhenEmpty: member "${key}" is not a list`);
        visit(member);
      }
      visit(def.catchall);
    } else if (def.type === "lazy") visit(def.getter?.());
    else {
      for (const inner of [def.element, def.innerType, def.valueType, def.left, def.right]) {
        visit(inner);
      }
      for (const inner of [...(def.options ?? []), ...(def.items ?? [])]) visit(inner);
      visit(def.rest);
      visit(def.in);
      visit(def.out);
    }
  };
  visit(schema);
  const clashes = [...marked].filter((name) => unmarked.has(name));
  if (clashes.length > 0) {
    throw new Error(
      `omittedWhenEmpty: ${clashes.map((name) => `"${name}"`).join(", ")} also names an unmarked member of the same schema`,
    );
  }
  return marked;
}

/**
 * For a union of objects tagged by `discriminator` (the envelope): the names
 * of the lists each variant leaves off the wire when empty
 * ({@link omittedListNames}), for the variants that have any.
 */
export function omittedListsByType<Tag extends string>(
  union: z.ZodType,
  discriminator = "type",
): Partial<Record<Tag, ReadonlySet<string>>> {
  const byType: Partial<Record<Tag, ReadonlySet<string>>> = {};
  for (const variant of defOf(union).options ?? []) {
    const tag = defOf(variant).shape?.[discriminator];
    const values = tag === undefined ? undefined : defOf(tag).values;
    if (values?.length !== 1 || typeof values[0] !== "string") {
      throw new Error(`omittedListsByType: a variant without one literal "${discriminator}"`);
    }
    const names = omittedListNames(variant);
    if (names.size > 0) byType[values[0] as Tag] = names;
  }
  return byType;
}
