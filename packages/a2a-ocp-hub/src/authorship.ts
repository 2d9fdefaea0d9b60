/**
 * The hub's part of "only a node's author changes it" (docs/a2a-ocp-wire.md,
 * "Authorship of knowledge"): a stateless check of the knowledge a message
 * carries. Every node and edge of an `ocp.knowledge.stream`, `.update`
 * (changes, new edges, tombstones) or `.sync.response` must be claimable by
 * its effective signer: its verified `ocpAuthorship.signer`, or the
 * message's `from` when it has none, must be the item's `createdBy` or one of
 * the `ocpEditors` it lists. The hub holds no graph, so it cannot know an
 * item's earlier author or editors; the receiving agents check that part.
 * Encrypted payloads are not readable here and are left to the agents.
 */
import type { Ed25519Backend, Result, WireMessage } from "@ocp/a2a-ocp-messaging";
import { checkItemClaimSync, ok } from "@ocp/a2a-ocp-messaging/internal";

type Json = Record<string, unknown>;

function objects(value: unknown): Json[] {
  return Array.isArray(value)
    ? value.filter((v): v is Json => typeof v === "object" && v !== null && !Array.isArray(v))
    : [];
}

/** The node- and edge-shaped items of a knowledge message's (readable) payload. */
export function knowledgeItems(type: string, payload: unknown): Json[] {
  if (typeof payload !== "object" || payload === null) return [];
  const p = payload as Json;
  switch (type) {
    case "ocp.knowledge.stream": {
      const chunks = p["batched"] === true ? objects(p["items"]) : [p];
      return chunks.flatMap((c) => [...objects(c["nodes"]), ...objects(c["edges"])]);
    }
    case "ocp.knowledge.sync.response":
      return [...objects(p["nodes"]), ...objects(p["edges"])];
    case "ocp.knowledge.update":
      return [
        ...objects(p["updates"]).flatMap((u) =>
          typeof u["changes"] === "object" && u["changes"] !== null
            ? [{ id: u["nodeId"], ...(u["changes"] as Json) }]
            : [],
        ),
        ...objects(p["newEdges"]),
        ...objects(p["tombstones"]),
        ...objects(p["edgeTombstones"]),
      ];
    default:
      return [];
  }
}

/**
 * `not_author` or `authorship_invalid` for the first item of `wire` its
 * signer may not claim; keys of registered agents from `keyOf`.
 */
export function checkAuthorship(
  wire: WireMessage,
  payload: unknown,
  keyOf: (agentId: string) => Uint8Array | undefined,
  ed25519: Ed25519Backend,
): Result<true, "not_author" | "authorship_invalid"> {
  for (const item of knowledgeItems(wire.type, payload)) {
    const claim = checkItemClaimSync(item, wire.from, keyOf, ed25519);
    if (!claim.ok) return claim;
  }
  return ok(true);
}
