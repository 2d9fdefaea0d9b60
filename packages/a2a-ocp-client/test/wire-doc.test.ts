/**
 * Issue 40: the wire document cannot drift from the schemas. This test reads
 * the frame tables of `docs/a2a-ocp-wire.md` (`### ocp.connection.*
 * (transport)` and `### ocp.hub.* (hub)`) and pins them to the JSON Schemas
 * generated from the zod schemas the hub and this client parse frames with
 * (`connectionFramesJsonSchema`, `hubFramesJsonSchema`; the committed
 * `schema/*.json` are pinned to these by frame-schemas.test.ts):
 *
 * - every frame type in a table has a schema, and every schema a row;
 * - the frame shape a section states (`Each frame is {…}`), or the whole
 *   frame a row gives in braces, names exactly the frame's top-level fields;
 * - the payload fields a row names are exactly the schema's, each optional
 *   (`name?`) exactly when the schema does not require it, nested fields
 *   (`name: {a, b?}`) likewise.
 *
 * The notation it reads: a row's payload cell starts with the whole frame in
 * one code span (`{protocol, type, payload: {a, b?}}`), or with a
 * comma-separated list of code spans (`a`, `b?`, `c: {d, e?}`), each
 * optionally followed by a note in parentheses (ignored); the list ends at
 * the first `:` or `;` after an item, and prose follows.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { connectionFramesJsonSchema, hubFramesJsonSchema } from "../src/frame-schemas.js";

type JsonObject = Record<string, unknown>;

/** A field list: each name, whether it is optional, and its nested fields when given. */
interface Field {
  optional: boolean;
  nested?: Map<string, Field>;
}
type Fields = Map<string, Field>;

const doc = readFileSync(new URL("../../../docs/a2a-ocp-wire.md", import.meta.url), "utf8");

/** The text of the `### ` section whose heading starts with `heading`. */
function section(heading: string): string {
  const start = doc.indexOf(`### ${heading}`);
  if (start < 0) throw new Error(`no section "### ${heading}" in the wire document`);
  const next = doc.indexOf("\n#", start + 4);
  return doc.slice(start, next < 0 ? undefined : next);
}

/** Parses `{a, b?, c: {d}}` (the braces included) from `text` at `at`; returns the fields and the end. */
function parseBraces(text: string, at: number): { fields: Fields; end: number } {
  if (text[at] !== "{") throw new Error(`expected "{" at ${at} in ${text}`);
  const fields: Fields = new Map();
  let i = at + 1;
  for (;;) {
    while (text[i] === " ") i += 1;
    const name = /^[A-Za-z_][A-Za-z0-9_]*\??/.exec(text.slice(i))?.[0];
    if (name === undefined) throw new Error(`expected a field name at ${i} in ${text}`);
    i += name.length;
    const field: Field = { optional: name.endsWith("?") };
    if (text.startsWith(": ", i)) {
      const nested = parseBraces(text, i + 2);
      field.nested = nested.fields;
      i = nested.end;
    }
    fields.set(name.replace(/\?$/, ""), field);
    if (text[i] === "}") return { fields, end: i + 1 };
    if (text[i] !== ",") throw new Error(`expected "," or "}" at ${i} in ${text}`);
    i += 1;
  }
}

/** One code span's field: `name`, `name?`, or `name: {…}` / `name?: {…}`. */
function parseItem(span: string): [string, Field] {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(\?)?(?:: (\{.*\}))?$/.exec(span);
  if (match === null) throw new Error(`not a field: \`${span}\``);
  const field: Field = { optional: match[2] === "?" };
  if (match[3] !== undefined) field.nested = parseBraces(match[3], 0).fields;
  return [match[1]!, field];
}

/** The fields a payload cell names, or the whole frame when the cell gives it in braces. */
function parseCell(cell: string): { frame?: Fields; payload?: Fields } {
  if (cell.startsWith("`{")) {
    const span = cell.slice(1, cell.indexOf("`", 1));
    return { frame: parseBraces(span, 0).fields };
  }
  const payload: Fields = new Map();
  let i = 0;
  for (;;) {
    if (cell[i] !== "`") throw new Error(`expected a code span at ${i} in: ${cell}`);
    const close = cell.indexOf("`", i + 1);
    const [name, field] = parseItem(cell.slice(i + 1, close));
    payload.set(name, field);
    i = close + 1;
    if (cell.startsWith(" (", i)) {
      let depth = 0;
      i += 1;
      do {
        if (cell[i] === "(") depth += 1;
        else if (cell[i] === ")") depth -= 1;
        i += 1;
      } while (depth > 0 && i < cell.length);
    }
    if (!cell.startsWith(", ", i)) return { payload };
    i += 2;
  }
}

/** The rows of a section's table: frame type → payload cell. */
function rows(text: string): Map<string, string> {
  const table = new Map<string, string>();
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const type = /^`(ocp\.[a-z.]+)`$/.exec(cells[1] ?? "")?.[1];
    if (type !== undefined) table.set(type, cells[3] ?? "");
  }
  return table;
}

/** The frame shape a section states: `Each frame is {…}`. */
function frameShape(text: string): Fields {
  const span = /Each frame is `(\{[^`]*\})`/.exec(text.replace(/\n/g, " "))?.[1];
  if (span === undefined)
    throw new Error("the section states no frame shape (Each frame is `{…}`)");
  return parseBraces(span, 0).fields;
}

/** A schema node's `$ref` resolved against `root.$defs`. */
function resolve(node: JsonObject, root: JsonObject): JsonObject {
  const ref = node["$ref"];
  if (typeof ref !== "string") return node;
  const defs = root["$defs"] as Record<string, JsonObject>;
  return defs[ref.replace("#/$defs/", "")]!;
}

/** Differences between what the document says of an object and what its schema says. */
function compare(said: Fields, node: JsonObject, root: JsonObject, path: string): string[] {
  const object = resolve(node, root);
  const properties = (object["properties"] ?? {}) as Record<string, JsonObject>;
  const required = new Set((object["required"] ?? []) as string[]);
  const problems: string[] = [];
  for (const [name, field] of said) {
    const at = `${path}${name}`;
    const property = properties[name];
    if (property === undefined) {
      problems.push(`${at}: named by the document, absent from the schema`);
      continue;
    }
    if (field.optional === required.has(name)) {
      const is = required.has(name) ? "required" : "optional";
      problems.push(
        `${at}: the schema has it ${is}, the document ${field.optional ? "optional" : "required"}`,
      );
    }
    if (field.nested !== undefined) {
      problems.push(...compare(field.nested, property, root, `${at}.`));
    }
  }
  for (const name of Object.keys(properties)) {
    if (!said.has(name)) {
      const is = required.has(name) ? "required" : "optional";
      problems.push(`${path}${name}: ${is} in the schema, not named by the document`);
    }
  }
  return problems;
}

/** Every frame of a generated schema, by its `type` constant. */
function framesOf(root: JsonObject): Map<string, JsonObject> {
  const frames = new Map<string, JsonObject>();
  for (const frame of root["oneOf"] as JsonObject[]) {
    const type = (frame["properties"] as Record<string, JsonObject>)["type"]!["const"] as string;
    frames.set(type, frame);
  }
  return frames;
}

/** Everything the section says that its schema does not (empty: they agree). */
function disagreements(heading: string, root: JsonObject): string[] {
  const text = section(heading);
  const shape = frameShape(text);
  const table = rows(text);
  const frames = framesOf(root);
  const problems: string[] = [];
  for (const type of frames.keys()) {
    if (!table.has(type)) problems.push(`${type}: in the schema, no row in the document`);
  }
  for (const [type, cell] of table) {
    const frame = frames.get(type);
    if (frame === undefined) {
      problems.push(`${type}: a row in the document, no schema`);
      continue;
    }
    const said = parseCell(cell);
    if (said.frame !== undefined) {
      problems.push(...compare(said.frame, frame, root, `${type} `));
      continue;
    }
    problems.push(...compare(shape, frame, root, `${type} `));
    const payload = (frame["properties"] as Record<string, JsonObject>)["payload"]!;
    problems.push(...compare(said.payload!, payload, root, `${type} payload.`));
  }
  return problems;
}

describe("docs/a2a-ocp-wire.md frame tables agree with the generated schemas", () => {
  it("### ocp.connection.* (transport): every frame type and field, required or optional as the schema says", () => {
    expect(disagreements("`ocp.connection.*` (transport)", connectionFramesJsonSchema())).toEqual(
      [],
    );
  });

  it("### ocp.hub.* (hub): every frame type and field, required or optional as the schema says", () => {
    expect(disagreements("`ocp.hub.*` (hub)", hubFramesJsonSchema())).toEqual([]);
  });
});

describe("the reading of the document's notation (so the check above cannot pass vacuously)", () => {
  const root = hubFramesJsonSchema();
  const ack = framesOf(root).get("ocp.hub.ack")!;
  const payload = (ack["properties"] as Record<string, JsonObject>)["payload"]!;
  const check = (cell: string) => compare(parseCell(cell).payload!, payload, root, "");

  it("reads required, optional, notes and trailing prose", () => {
    const cell =
      "`id`, `durable` (note, with `code` and (nesting)), `recipients`, `excluded?`, `expiresAt?`: prose `x`";
    expect(check(cell)).toEqual([]);
  });

  it("finds a field the schema lacks, a required field left out, and a wrong optional mark", () => {
    expect(check("`id`, `durable`, `recipients`, `excluded?`, `expiresAt?`, `extra`")).toEqual([
      "extra: named by the document, absent from the schema",
    ]);
    expect(check("`id`, `recipients`, `excluded?`, `expiresAt?`")).toEqual([
      "durable: required in the schema, not named by the document",
    ]);
    expect(check("`id?`, `durable`, `recipients`, `excluded`, `expiresAt?`")).toEqual([
      "id: the schema has it required, the document optional",
      "excluded: the schema has it optional, the document required",
    ]);
  });

  it("checks nested fields given in braces, and refuses notation it cannot read", () => {
    const connection = connectionFramesJsonSchema();
    const ackFrame = framesOf(connection).get("ocp.connection.ack")!;
    const ackPayload = (ackFrame["properties"] as Record<string, JsonObject>)["payload"]!;
    const said = parseCell(
      "`nonce`, `serverTime`, `limits: {maxPayloadBytes, heartbeat?}`, `hub?`",
    );
    expect(compare(said.payload!, ackPayload, connection, "")).toEqual([
      "limits.heartbeat: named by the document, absent from the schema",
      "limits.maxBatchRecords: required in the schema, not named by the document",
      "limits.heartbeatIntervalMs: required in the schema, not named by the document",
      "limits.heartbeatTimeoutMs: required in the schema, not named by the document",
      "limits.handshakeTimeoutMs: required in the schema, not named by the document",
    ]);
    expect(() => parseCell("optional `reason`")).toThrow(/expected a code span/);
    expect(() => parseCell("`reason (≤ 4096)`")).toThrow(/not a field/);
  });
});
