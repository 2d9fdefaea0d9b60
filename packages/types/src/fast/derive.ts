import type { z } from "zod";
import { defOf, keepsValue, leafOf, refinementOf, type SchemaDef } from "./schema-reading.js";

/**
 * Fast paths built from a zod schema at start-up, so that the schema stays
 * the only definition of a shape: {@link plainFormCheck} compiles a schema
 * into a check that a value is already in the form the schema gives back.
 * The check is compiled to JavaScript once (as zod compiles its own object
 * parsers): one function per object, array, record and union, the members
 * and bounds written in, which runs as fast as a hand-written check. Where
 * code cannot be compiled (a Content Security Policy without
 * `unsafe-eval`), every check answers `false` and the schema decides: slower,
 * never different.
 */

/** Whether a value is already in the form its schema gives back (see {@link plainFormCheck}). */
export type PlainFormCheck = (value: unknown) => boolean;

export interface PlainFormOptions {
  /**
   * Fill an absent defaulted member in (in place) with the schema's default,
   * as the schema's output would hold it: for values the caller owns (just
   * parsed from the wire). Without it such a value is not in the plain form.
   */
  readonly fill?: boolean;
}

/**
 * Compiles `source` (function declarations, then `return <name>;`) with the
 * constants it reads as `k`; undefined when the environment forbids it.
 */
export function instantiate<T>(source: string, constants: readonly unknown[]): T | undefined {
  try {
    return new Function("k", `"use strict";\n${source}`)(constants) as T;
  } catch {
    return undefined;
  }
}

/** A member read that never sees an inherited `Object.prototype` member. */
export function memberRead(holder: string, key: string): string {
  const name = JSON.stringify(key);
  return key in Object.prototype
    ? `(Object.hasOwn(${holder}, ${name}) ? ${holder}[${name}] : undefined)`
    : `${holder}[${name}]`;
}

const PLAIN_OBJECT = (v: string) =>
  `typeof ${v} !== "object" || ${v} === null || Object.getPrototypeOf(${v}) !== Object.prototype`;

class CheckCompiler {
  readonly constants: unknown[] = [];
  readonly functions: string[] = [];
  readonly names = new Map<z.ZodType, string>();
  /** What the compiler could not express, so answered `false` for: where the check is not exact. */
  readonly unsure: string[] = [];
  constructor(
    readonly fill: boolean,
    readonly constantName: (index: number) => string = (index) => `k[${index}]`,
  ) {}

  constant(value: unknown): string {
    this.constants.push(value);
    return this.constantName(this.constants.length - 1);
  }

  /** `false` (or a body returning it) for what cannot be compiled, recorded in {@link unsure}. */
  unknown(what: string, body = false): string {
    this.unsure.push(what);
    return body ? "return false;" : "false";
  }

  /** The name of a compiled function `(v) => boolean` for `schema`. */
  function(schema: z.ZodType, body: (def: SchemaDef) => string): string {
    const known = this.names.get(schema);
    if (known !== undefined) return known;
    const name = `f${this.names.size}`;
    this.names.set(schema, name);
    this.functions.push(`function ${name}(v) {\n${body(defOf(schema))}\n}`);
    return name;
  }

  /** A boolean expression on `v` (an identifier): whether it is in the plain form of `schema`. */
  expression(schema: z.ZodType, v: string): string {
    const def = defOf(schema);
    switch (def.type) {
      case "string":
      case "number":
        return this.leaf(schema, def.type, v);
      case "boolean":
        return `typeof ${v} === "boolean"`;
      case "null":
        return `${v} === null`;
      case "literal":
        return `(${def.values!.map((value) => `${v} === ${this.literal(value)}`).join(" || ")})`;
      case "enum":
        return `${this.constant(new Set(Object.values(def.entries!)))}.has(${v})`;
      case "unknown":
      case "any":
        return "true";
      case "optional":
        return `(${v} === undefined || ${this.expression(def.innerType!, v)})`;
      case "nullable":
        return `(${v} === null || ${this.expression(def.innerType!, v)})`;
      case "object":
        return `${this.function(schema, (d) => this.object(schema, d))}(${v})`;
      case "array":
        return `${this.function(schema, (d) => this.array(schema, d))}(${v})`;
      case "record":
        return `${this.function(schema, (d) => this.record(d))}(${v})`;
      case "union":
        return `${this.function(schema, (d) => this.union(schema, d))}(${v})`;
      case "never":
        return "false";
      default:
        // default outside an object, pipe, transform, lazy ...: the schema decides
        return this.unknown(def.type);
    }
  }

  literal(value: unknown): string {
    if (value === undefined) return "undefined";
    if (typeof value === "string" || typeof value === "boolean" || value === null) {
      return JSON.stringify(value);
    }
    return typeof value === "number" && Number.isFinite(value)
      ? JSON.stringify(value)
      : this.constant(value);
  }

  leaf(schema: z.ZodType, type: "string" | "number", v: string): string {
    const leaf = leafOf(schema);
    if (leaf === undefined) return this.unknown(`a ${type} check or format`);
    const parts =
      type === "string"
        ? [`typeof ${v} === "string"`]
        : [leaf.integer ? `Number.isSafeInteger(${v})` : `Number.isFinite(${v})`];
    const bound = (op: string, limit: number | undefined, of = v) => {
      if (limit !== undefined && Number.isFinite(limit)) parts.push(`${of} ${op} ${limit}`);
    };
    if (type === "string") {
      if ((leaf.minLength ?? 0) > 0) bound(">=", leaf.minLength, `${v}.length`);
      bound("<=", leaf.maxLength, `${v}.length`);
      for (const pattern of leaf.patterns) parts.push(`${this.constant(pattern)}.test(${v})`);
    } else {
      bound(">=", leaf.minimum);
      bound("<=", leaf.maximum);
      bound(">", leaf.exclusiveMinimum);
      bound("<", leaf.exclusiveMaximum);
    }
    return `(${parts.join(" && ")})`;
  }

  object(schema: z.ZodType, def: SchemaDef): string {
    const refinement = refinementOf(schema);
    const catchall = def.catchall === undefined ? "strip" : defOf(def.catchall).type;
    if (refinement === "unknown" || !["strip", "never", "unknown"].includes(catchall)) {
      return this.unknown("an object refinement or catchall", true);
    }
    const lines = [`if (${PLAIN_OBJECT("v")}) return false;`];
    const shape = Object.entries(def.shape!);
    if (catchall === "unknown") {
      // Kept members pass as they are, but the schema drops an own `__proto__`.
      lines.push(`if (Object.hasOwn(v, "__proto__")) return false;`);
    } else {
      const cases = shape.map(([key]) => `case ${JSON.stringify(key)}:`).join(" ");
      lines.push(`for (const key in v) switch (key) { ${cases} continue; default: return false; }`);
    }
    // Literal members (a union's discriminator) first: a value of another variant fails before
    // anything is filled in.
    const ordered = [
      ...shape.filter(([, member]) => defOf(member).type === "literal"),
      ...shape.filter(([, member]) => defOf(member).type !== "literal"),
    ];
    for (const [index, [key, member]] of ordered.entries()) {
      lines.push(this.member(key, member, `m${index}`));
    }
    if (refinement !== undefined) {
      lines.push(`return ${this.constant(refinement)}(v) === true;`);
    } else lines.push("return true;");
    return lines.join("\n");
  }

  member(key: string, member: z.ZodType, m: string): string {
    const def = defOf(member);
    const read = `const ${m} = ${memberRead("v", key)};`;
    if (def.type === "default") {
      const value = def.defaultValue;
      const made =
        Array.isArray(value) && value.length === 0
          ? "[]"
          : `${this.constant(member)}.def.defaultValue`;
      const absent = this.fill ? `v[${JSON.stringify(key)}] = ${made};` : "return false;";
      return `${read} if (${m} === undefined) { ${absent} } else if (!(${this.expression(def.innerType!, m)})) return false;`;
    }
    if (def.type === "unknown" || def.type === "any") {
      // Not optional: the schema wants the member present, whatever it holds.
      return `if (!Object.hasOwn(v, ${JSON.stringify(key)})) return false;`;
    }
    return `${read} if (!(${this.expression(member, m)})) return false;`;
  }

  array(schema: z.ZodType, def: SchemaDef): string {
    const leaf = leafOf(schema);
    if (leaf === undefined) return this.unknown("an array check", true);
    const lines = [
      "if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) return false;",
    ];
    if ((leaf.minLength ?? 0) > 0) lines.push(`if (v.length < ${leaf.minLength}) return false;`);
    if (leaf.maxLength !== undefined) lines.push(`if (v.length > ${leaf.maxLength}) return false;`);
    const element = this.expression(def.element!, "e");
    if (element !== "true") {
      lines.push(
        `for (let i = 0; i < v.length; i++) { const e = v[i]; if (!(${element})) return false; }`,
      );
    }
    lines.push("return true;");
    return lines.join("\n");
  }

  record(def: SchemaDef): string {
    const key = leafOf(def.keyType!);
    const plainKey =
      defOf(def.keyType!).type === "string" &&
      key !== undefined &&
      key.patterns.length === 0 &&
      key.minLength === undefined &&
      key.maxLength === undefined;
    if (!plainKey) return this.unknown("a record key schema", true);
    const lines = [
      `if (${PLAIN_OBJECT("v")} || Object.hasOwn(v, "__proto__")) return false;`,
      // An enumerable symbol key fails the string key schema.
      "if (Object.getOwnPropertySymbols(v).length !== 0) return false;",
    ];
    const value = this.expression(def.valueType!, "e");
    if (value !== "true") {
      lines.push(`for (const key in v) { const e = v[key]; if (!(${value})) return false; }`);
    }
    lines.push("return true;");
    return lines.join("\n");
  }

  union(schema: z.ZodType, def: SchemaDef): string {
    // A discriminated union parses the one variant its discriminator names; another union the
    // first option that accepts, which vouches for the value only when every option keeps it.
    if (def.discriminator === undefined && !keepsValue(schema)) {
      return this.unknown("a union that reshapes", true);
    }
    return `return ${def.options!.map((option) => this.expression(option, "v")).join(" || ")};`;
  }
}

/**
 * A check compiled from `schema`: `true` means the schema accepts `value`
 * and gives back a value deep-equal to it (after `fill`), so the caller may
 * take it as it is; `false` says nothing, the schema decides. What the
 * compiler does not know (a transform, a pipe, a string format checked by
 * code, a refinement other than one plain `.refine`) answers `false`.
 */
export function plainFormCheck(schema: z.ZodType, options: PlainFormOptions = {}): PlainFormCheck {
  const compiler = new CheckCompiler(options.fill === true);
  const root = compiler.expression(schema, "v");
  const source = `${compiler.functions.join("\n")}\nreturn function check(v) { return ${root}; };`;
  return instantiate<PlainFormCheck>(source, compiler.constants) ?? (() => false);
}

/** The checks of several schemas as source, for a generator that writes them into a module. */
export interface PlainFormSource {
  /** Function declarations (`function f0(v) {...}`), shared by the roots. */
  readonly functions: readonly string[];
  /** Per root name, a boolean expression on `v`: whether it is in that schema's plain form. */
  readonly roots: Readonly<Record<string, string>>;
  /** The constants the source reads (patterns, enum sets, refinements), by index. */
  readonly constants: readonly unknown[];
  /** What could not be compiled (answered `false`): empty when every check is exact. */
  readonly unsure: readonly string[];
}

/**
 * The {@link plainFormCheck}s of `schemas` as JavaScript source (no `fill`),
 * constants named by `constantName`: what a build step writes into a module,
 * so that code that must not load zod (a browser bundle) checks values with
 * checks still compiled from the schemas. The check of a root is exact (true
 * if and only if the schema accepts the value and gives it back unchanged)
 * when `unsure` is empty.
 */
export function plainFormSource(
  schemas: Readonly<Record<string, z.ZodType>>,
  constantName: (index: number) => string,
): PlainFormSource {
  const compiler = new CheckCompiler(false, constantName);
  const roots: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    roots[name] = compiler.expression(schema, "v");
  }
  return {
    functions: compiler.functions,
    roots,
    constants: compiler.constants,
    unsure: compiler.unsure,
  };
}
