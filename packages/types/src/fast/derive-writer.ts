import type { z } from "zod";
import { isOmittedWhenEmpty } from "../wire-lists.js";
import { instantiate, memberRead } from "./derive.js";
import { defOf, leafOf } from "./schema-reading.js";

/**
 * The wire writer of a schema, compiled from it at start-up: the JSON that
 * `toWire` of `@ocp/types` writes for a value in the plain form (see
 * `plainFormCheck`), without building the wire object. Members in the
 * schema's declaration order (the order a schema's output, and so `toWire`,
 * has them), absent and `null` members left off, and a list marked
 * `omittedWhenEmpty` in the schema left off when empty (the reference omits
 * those; `toWire` reads the same marks). Members named in `raw` hold JSON
 * already encoded and are written as they are.
 */
export type WireWriter = (value: unknown) => string;

class WriterCompiler {
  readonly constants: unknown[] = [];
  readonly functions: string[] = [];
  readonly names = new Map<z.ZodType, string>();
  constructor(readonly raw: ReadonlySet<string>) {}

  /** An expression writing `v` (an identifier known to be present) as JSON. */
  value(schema: z.ZodType, v: string): string {
    const def = defOf(schema);
    switch (def.type) {
      case "optional":
      case "nullable":
      case "default":
        return this.value(def.innerType!, v);
      case "boolean":
        return `(${v} ? "true" : "false")`;
      case "number":
        return leafOf(schema)?.integer === true ? `("" + ${v})` : `JSON.stringify(${v})`;
      case "string":
      case "literal":
      case "enum":
        return `JSON.stringify(${v})`;
      case "object":
        return `${this.object(schema)}(${v})`;
      case "array": {
        const element = defOf(def.element!);
        if (element.type === "object") {
          const each = this.object(def.element!);
          return `${this.constant(list)}(${v}, ${each})`;
        }
        if (["string", "number", "boolean", "enum", "literal"].includes(element.type)) {
          return `JSON.stringify(${v})`;
        }
        throw new Error(`wire writer: an array of ${element.type} is not supported`);
      }
      default:
        throw new Error(`wire writer: a member of type ${def.type} is not supported`);
    }
  }

  constant(value: unknown): string {
    this.constants.push(value);
    return `k[${this.constants.length - 1}]`;
  }

  object(schema: z.ZodType): string {
    const known = this.names.get(schema);
    if (known !== undefined) return known;
    const name = `w${this.names.size}`;
    this.names.set(schema, name);
    const lines = ['let o = "{";'];
    // Whether a member is written before this one for certain (a comma is then due).
    let written = false;
    for (const [index, [key, member]] of Object.entries(defOf(schema).shape!).entries()) {
      const def = defOf(member);
      const m = `m${index}`;
      const label = `${JSON.stringify(key)}:`;
      const head = written
        ? JSON.stringify(`,${label}`)
        : `(o.length === 1 ? ${JSON.stringify(label)} : ${JSON.stringify(`,${label}`)})`;
      const encoded = this.raw.has(key) ? m : this.value(member, m);
      const omitEmpty = isOmittedWhenEmpty(member);
      const absentable =
        omitEmpty || def.type === "optional" || def.type === "nullable" || def.type === "default";
      const emptyList = omitEmpty ? ` && ${m}.length !== 0` : "";
      lines.push(`const ${m} = ${memberRead("v", key)};`);
      if (absentable) lines.push(`if (${m} != null${emptyList}) o += ${head} + ${encoded};`);
      else {
        lines.push(`o += ${head} + ${encoded};`);
        written = true;
      }
    }
    lines.push('return o + "}";');
    this.functions.push(`function ${name}(v) {\n${lines.join("\n")}\n}`);
    return name;
  }
}

/** Objects written one after the other, comma-separated, in brackets. */
function list(values: readonly unknown[], write: (value: unknown) => string): string {
  let out = "[";
  for (let i = 0; i < values.length; i += 1) out += (i === 0 ? "" : ",") + write(values[i]);
  return `${out}]`;
}

/**
 * Compiles the wire writer of an object schema (see {@link WireWriter}).
 *
 * Undefined where code cannot be compiled (the caller then encodes with the
 * schema's encoder).
 *
 * @throws {Error} at start-up, for a member the writer cannot write (a
 * union, a record, a list of lists): a schema change the writer must learn.
 */
export function wireWriter(schema: z.ZodType, raw: readonly string[] = []): WireWriter | undefined {
  const compiler = new WriterCompiler(new Set(raw));
  const root = compiler.object(schema);
  const source = `${compiler.functions.join("\n")}\nreturn ${root};`;
  return instantiate<WireWriter>(source, compiler.constants);
}

/** A copy of an object's present members, in the schema's order (see {@link memberCopier}). */
export type MemberCopier = (
  value: unknown,
  list: (member: readonly unknown[]) => unknown,
) => object;

/**
 * Compiles a copier of an object schema's members: each present (not
 * `undefined`) member of the shape copied in declaration order, a list
 * passed through `list` (to copy and freeze it, say). Undefined where code
 * cannot be compiled.
 */
export function memberCopier(schema: z.ZodType): MemberCopier | undefined {
  const lines = ["return function copy(v, list) {", "const c = {};"];
  for (const [index, key] of Object.keys(defOf(schema).shape!).entries()) {
    const m = `m${index}`;
    lines.push(
      `const ${m} = ${memberRead("v", key)};`,
      `if (${m} !== undefined) c[${JSON.stringify(key)}] = Array.isArray(${m}) ? list(${m}) : ${m};`,
    );
  }
  lines.push("return c;", "};");
  return instantiate<MemberCopier>(lines.join("\n"), []);
}
