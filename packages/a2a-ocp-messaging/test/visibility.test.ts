import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { KNOWN_MESSAGE_TYPES, mayReceive, maySee } from "../src/index.js";
import { ACCESS_FIELDS, accessControlledNodes, PAYLOAD_SCHEMAS } from "../src/internal.js";
import { KnowledgeNodeSchema } from "../src/schemas.js";

type Step = string | "[]";

/**
 * Every path at which a payload schema places an object schema carrying the
 * node's access fields, found by walking the zod definitions (objects,
 * arrays, optionals, unions, intersections, records, pipes, lazies).
 */
function nodePaths(schema: z.ZodType, path: Step[] = [], seen = new Set<unknown>()): Step[][] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const walk = (child: unknown, step?: Step) =>
    nodePaths(child as z.ZodType, step === undefined ? path : [...path, step], new Set(seen));
  switch (def["type"]) {
    case "object": {
      const shape = def["shape"] as Record<string, z.ZodType>;
      const here = ACCESS_FIELDS.some((field) => field in shape) ? [path] : [];
      return [...here, ...Object.entries(shape).flatMap(([key, child]) => walk(child, key))];
    }
    case "array":
      return walk(def["element"], "[]");
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
    case "nonoptional":
    case "catch":
      return walk(def["innerType"]);
    case "union":
      return (def["options"] as unknown[]).flatMap((option) => walk(option));
    case "intersection":
      return [...walk(def["left"]), ...walk(def["right"])];
    case "record":
      return walk(def["valueType"], "key");
    case "pipe":
      return [...walk(def["in"]), ...walk(def["out"])];
    case "lazy":
      return walk((def["getter"] as () => unknown)());
    default:
      return [];
  }
}

function place(path: Step[], node: unknown): unknown {
  if (path.length === 0) return node;
  const [step, ...rest] = path;
  return step === "[]" ? [place(rest, node)] : { [step as string]: place(rest, node) };
}

const secret = {
  id: "n1",
  type: "fact",
  title: "secret",
  data: { secret: "s3cr3t" },
  confidence: 1,
  timestamp: "2026-01-01T00:00:00Z",
  createdBy: "a2a://alice",
  tags: [],
  visibility: "private",
  sharedWith: ["a2a://bob"],
};
const policy = { teamOf: () => undefined, defaultVisibility: "workspace" as const };

describe("§8.5 which parts of a message are nodes: derived from the payload schemas", () => {
  const located = KNOWN_MESSAGE_TYPES.flatMap((type) =>
    nodePaths(PAYLOAD_SCHEMAS[type] as z.ZodType).map((path) => [type, path] as const),
  );

  it("the schemas put nodes in streams, batches, sync responses, conflicts, findings and updates", () => {
    const types = new Set(located.map(([type]) => type));
    for (const type of [
      "ocp.knowledge.stream",
      "ocp.knowledge.sync.response",
      "ocp.knowledge.conflict",
      "ocp.knowledge.update",
      "ocp.collective.response",
    ]) {
      expect(types, type).toContain(type);
    }
    expect(ACCESS_FIELDS.every((field) => field in KnowledgeNodeSchema.shape)).toBe(true);
  });

  it("a private node at every place a schema allows one keeps an excluded recipient out", () => {
    expect(located.length).toBeGreaterThanOrEqual(8);
    for (const [type, path] of located) {
      const payload = place(path, secret);
      const nodes = accessControlledNodes(type, "a2a://alice", payload);
      expect(nodes.length, `${type} at ${path.join(".")}`).toBeGreaterThan(0);
      expect(mayReceive(nodes, "a2a://bob", policy), `${type} ${path.join(".")}`).toBe(true);
      expect(mayReceive(nodes, "a2a://carol", policy), `${type} ${path.join(".")}`).toBe(false);
    }
  });

  it("the same holds in unknown slots, loose members and custom payloads", () => {
    for (const payload of [
      { conflicts: [{ localVersion: secret }] },
      { status: "working", extra: { deeper: [[secret]] } },
      { anything: { node: secret } },
    ]) {
      expect(
        mayReceive(
          accessControlledNodes("ocp.custom.x", "a2a://alice", payload),
          "a2a://carol",
          policy,
        ),
      ).toBe(false);
    }
  });

  it("a partial node without createdBy is the sender's; a node with only createdBy has the default visibility", () => {
    const update = { updates: [{ nodeId: "n1", changes: { visibility: "private" } }] };
    expect(accessControlledNodes("ocp.knowledge.update", "a2a://alice", update)).toEqual([
      { createdBy: "a2a://alice", visibility: "private", sharedWith: undefined },
    ]);
    const plain = { nodes: [{ ...secret, visibility: undefined, sharedWith: undefined }] };
    expect(
      mayReceive(
        accessControlledNodes("ocp.knowledge.stream", "a2a://alice", plain),
        "a2a://carol",
        policy,
      ),
    ).toBe(true);
  });

  it("an unknown visibility level fails closed", () => {
    expect(
      maySee({ createdBy: "a2a://alice", visibility: "hidden" as never }, "a2a://carol", policy),
    ).toBe(false);
    expect(
      maySee({ createdBy: "a2a://alice", visibility: "hidden" as never }, "a2a://alice", policy),
    ).toBe(true);
  });
});
