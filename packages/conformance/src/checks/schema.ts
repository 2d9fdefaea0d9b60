import { ENVELOPE_SCHEMA_ID, envelopeJsonSchema } from "@ocp/types";
import Ajv2020Module from "ajv/dist/2020.js";
import { excerpt, listOf } from "../evidence.js";
import { REFERENCE_ENVELOPE_SCHEMA } from "../reference-schema.js";
import { type CheckResult, fail, pass, skip } from "../report.js";
import type { Recorded } from "../session.js";

type Validator = ((value: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

/** ajv is CommonJS: under NodeNext its class is the module's `default`. */
const Ajv2020 = Ajv2020Module.default;

/** `$defs` entry of each envelope type, so errors come from the variant the message claims. */
const VARIANTS: Readonly<Record<string, string>> = {
  handshake: "Handshake",
  handshake_ack: "HandshakeAck",
  query: "Query",
  frames: "Frames",
  shutdown: "Shutdown",
  error: "Error",
};

interface Validators {
  readonly root: Validator;
  readonly variant: (name: string) => Validator | undefined;
}

const compiled = new Map<"ours" | "reference", Validators>();

/** Our envelope schema, or the reference's published one (closed objects). */
function compile(which: "ours" | "reference" = "ours"): Validators {
  const found = compiled.get(which);
  if (found !== undefined) return found;
  const schema = which === "ours" ? envelopeJsonSchema() : REFERENCE_ENVELOPE_SCHEMA;
  const id = which === "ours" ? ENVELOPE_SCHEMA_ID : String(REFERENCE_ENVELOPE_SCHEMA.$id);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const root = ajv.compile(schema) as Validator;
  const made: Validators = {
    root,
    variant: (name) => ajv.getSchema(`${id}#/$defs/${name}`) as Validator | undefined,
  };
  compiled.set(which, made);
  return made;
}

/**
 * Schema errors another check names more precisely (F1-F3 on frames, H1-H2
 * on the handshake), so one fault fails one check.
 */
const ATTRIBUTED: readonly { path: RegExp; check: string }[] = [
  { path: /^\/result\/frames\/\d+\/(score|title|citation_label)$/, check: "frame-validity" },
  { path: /^\/(protocol_version|provider\/name|provider\/version)$/, check: "handshake" },
];

/**
 * The schema errors of one message, minus those attributed to another check
 * (`attributed` counts the fields). The "or null" branch of an optional field
 * adds no information and is left out.
 */
export function schemaErrors(
  raw: string,
  which: "ours" | "reference" = "ours",
): { errors: string[]; attributed: number } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { errors: ["not JSON"], attributed: 0 };
  }
  const { root, variant } = compile(which);
  if (root(value)) return { errors: [], attributed: 0 };
  const type =
    typeof value === "object" && value !== null && "type" in value
      ? String((value as { type: unknown }).type)
      : undefined;
  const name = type === undefined ? undefined : VARIANTS[type];
  const validate = name === undefined ? undefined : variant(name);
  if (validate === undefined) {
    return {
      errors: [
        `"type" ${type === undefined ? "is missing" : `${excerpt(type)} is not an envelope type`}`,
      ],
      attributed: 0,
    };
  }
  validate(value);
  const attributed = new Set<string>();
  const errors = new Set<string>();
  for (const error of validate.errors ?? []) {
    if (ATTRIBUTED.some((rule) => rule.path.test(error.instancePath)))
      attributed.add(error.instancePath);
    else if (error.message !== "must match a schema in anyOf" && error.message !== "must be null") {
      errors.add(`${error.instancePath || "(root)"} ${error.message ?? "is invalid"}`);
    }
  }
  return { errors: [...errors], attributed: attributed.size };
}

/**
 * The published schema requires a frame's `provenance` and `relations`, but
 * the reference itself has since omitted them when empty
 * (`skip_serializing_if`), as we do: their absence is not held against a
 * plain peer's traffic. Everything else of the published schema is.
 */
const REVISED_REQUIRED =
  /^\/result\/frames\/\d+ must have required property '(provenance|relations)'$/;

/**
 * Connections on which the suite behaves as a plain `ocp/1.0-draft` host
 * (no extension asked for): what the provider sends there must also validate
 * against the reference's published schema, extensions and all.
 */
export const PLAIN_SESSIONS: ReadonlySet<string> = new Set(["version-mismatch", "malformed"]);

/**
 * schema (S1): every message the provider sent, on every connection of the
 * run, validates against `schema/ocp-envelope.schema.json` (draft 2020-12);
 * on a plain connection (`PLAIN_SESSIONS`), against the reference's
 * published schema as well, so no extension reaches a peer that never asked.
 */
export function judgeSchema(records: readonly Recorded[]): CheckResult {
  if (records.length === 0)
    return skip("schema", "the provider sent no message to validate; see handshake");
  const problems: string[] = [];
  let attributed = 0;
  records.forEach((record, index) => {
    const found = schemaErrors(record.raw);
    if (found.errors.length === 0 && PLAIN_SESSIONS.has(record.session)) {
      const reference = schemaErrors(record.raw, "reference").errors.filter(
        (error) => !REVISED_REQUIRED.test(error),
      );
      found.errors.push(
        ...reference.map((error) => `${error} (reference schema, to a plain peer)`),
      );
    }
    attributed += found.attributed;
    if (found.errors.length > 0) {
      problems.push(
        `message ${index + 1} (${record.session} connection, after ${record.after}): ${found.errors.slice(0, 3).join(", ")}${found.errors.length > 3 ? ` (+${found.errors.length - 3})` : ""} in ${excerpt(record.raw)}`,
      );
    }
  });
  const note =
    attributed > 0
      ? ` (${attributed} field(s) among score, title, citation_label and the handshake identity are reported by frame-validity and handshake)`
      : "";
  if (problems.length > 0) {
    return fail(
      "schema",
      `S1: ${problems.length} of ${records.length} message(s) fail the envelope schema: ${listOf(problems)}${note}`,
    );
  }
  return pass(
    "schema",
    `all ${records.length} message(s) validate against the envelope schema${note}`,
  );
}
