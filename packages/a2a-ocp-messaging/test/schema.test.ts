import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { decodeMessage, signObject } from "../src/index.js";
import { messageJsonSchema } from "../src/json-schema.js";
import { compressMessage, encryptMessage, generateX25519KeyPair } from "../src/node/index.js";
import { plainMessage } from "./support/arbitraries.js";
import { ALICE } from "./support/samples.js";

// Property tests here run hundreds of signatures or inflations: a bound per file, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

const root = fileURLToPath(new URL("../../..", import.meta.url));
const schemaPath = join(root, "schema", "a2a-ocp-message.schema.json");
const examplesDir = join(root, "examples", "a2a-ocp");
const verbatimDir = join(examplesDir, "spec-verbatim");

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const jsonFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();

const ajv = new Ajv2020({
  strict: true,
  allErrors: true,
  formats: { uuid: true, "date-time": true },
});
const validate = ajv.compile(readJson(schemaPath));

describe("generated JSON Schema", () => {
  it("schema/a2a-ocp-message.schema.json is up to date (run `pnpm generate`)", () => {
    expect(readFileSync(schemaPath, "utf8")).toBe(
      `${JSON.stringify(messageJsonSchema(), null, 2)}\n`,
    );
  });

  it("property: JSON Schema and zod agree on generated plain, signed, encrypted and compressed messages", () => {
    const bob = generateX25519KeyPair();
    const secret = new Uint8Array(32).fill(7);
    fc.assert(
      fc.property(
        plainMessage,
        fc.constantFrom("plain", "signed", "encrypted", "compressed"),
        (message, form) => {
          const wire =
            form === "plain"
              ? message
              : form === "signed"
                ? signObject(message, secret)
                : form === "encrypted"
                  ? encryptMessage(message, [{ agentId: ALICE, publicKey: bob.publicKey }])
                  : compressMessage(message, { thresholdBytes: 1 });
          const value = JSON.parse(JSON.stringify(wire));
          return validate(value) === true && decodeMessage(value).ok;
        },
      ),
      { numRuns: 100 },
    );
  });

  it("JSON Schema and zod both refuse out-of-range values, closed enums and mixed forms", () => {
    const base = readJson(join(examplesDir, "knowledge-stream.json"));
    const node = base.payload.nodes[0];
    const bad = [
      { ...base, payload: { ...base.payload, nodes: [{ ...node, confidence: 1.5 }] } },
      { ...base, payload: { ...base.payload, nodes: [{ ...node, visibility: "secret" }] } },
      { ...base, priority: "critical" },
      { ...base, type: "ocp.knowledge.streaming" },
      { ...base, compression: "gzip", compressedPayload: "AAAA" },
      { ...base, encrypted: true },
    ];
    for (const value of bad) {
      expect(validate(value), JSON.stringify(value).slice(0, 80)).toBe(false);
      expect(decodeMessage(value).ok).toBe(false);
    }
  });
});

describe("specification examples (examples/a2a-ocp)", () => {
  const normalized = jsonFiles(examplesDir);

  it("holds every example of the specification, verbatim and normalized", () => {
    expect(normalized).toHaveLength(8);
    expect(jsonFiles(verbatimDir)).toEqual(normalized);
  });

  it.each(normalized)("%s validates with ajv (draft 2020-12) and the zod decoder", (file) => {
    const value = readJson(join(examplesDir, file));
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
    const decoded = decodeMessage(value);
    expect(decoded.ok && decoded.value).toEqual(value);
  });

  it.each(normalized)(
    "%s: the specification's example is accepted as printed (ids such as msg-abc123 included), except §7.2's envelope-less frames",
    (file) => {
      const verbatim = readJson(join(verbatimDir, file));
      const fixed = readJson(join(examplesDir, file));
      const decoded = decodeMessage(verbatim);
      if (file.startsWith("capability")) {
        expect(validate(verbatim)).toBe(false);
        expect(decoded.ok).toBe(false);
        const paths = decoded.ok
          ? []
          : (decoded.error.details["issues"] as Array<{ path: string[] }>).map((i) =>
              i.path.join("."),
            );
        expect(paths.sort()).toEqual(["from", "id", "timestamp", "to", "version"]);
        expect({ protocol: fixed.protocol, type: fixed.type, payload: fixed.payload }).toEqual(
          verbatim,
        );
      } else {
        expect(verbatim.id).toMatch(/^msg-/);
        expect(validate(verbatim), ajv.errorsText(validate.errors)).toBe(true);
        expect(decoded.ok && decoded.value).toEqual(verbatim);
        expect({ ...fixed, id: verbatim.id }).toEqual(verbatim);
      }
    },
  );
});
