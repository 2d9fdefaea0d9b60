import type { KnowledgeEdge, KnowledgeNode, KnowledgeUpdatePayload } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { KnowledgeNodeSchema } from "@ocp/a2a-ocp-messaging/schemas";
import type { ItemKind, KnowledgeGraph } from "./graph.js";
import {
  canonicalHash,
  contentOf,
  type VersionedEdge,
  type VersionedItem,
  type VersionedNode,
} from "./merge.js";
import type { VersionVector } from "./version-vector.js";
import { sortedVector } from "./version-vector.js";

/**
 * Versions for what a plain a2a+ocp sender (one that knows nothing of our
 * `ocpVersion` extension) sends, so that its streams, sync pages, updates
 * and deletions merge like ours:
 *
 * - A node or edge without `ocpVersion` gets `{ [sender]: t }`, `t` its
 *   `timestamp` in ms (the message's for edges, which carry none). When we
 *   already hold the same content, it gets our version (nothing to merge).
 *   So a sender's later edit dominates its earlier one, a re-send is a no-op,
 *   and edits of different senders are concurrent (a conflict, resolved and
 *   reported as for our own agents).
 * - A `NodeUpdate` (§5.1.6) or a plain `deletions`/`deletedEdges` entry is an
 *   edit of the version we hold: its vector is ours with the sender's entry
 *   raised to `max(ours + 1, t)`, so it dominates what we have. It carries
 *   the sender's authority, not the stored author signature (dropped).
 * - An edge without `createdBy` (§5.1.1 edges have none) gets the stored
 *   edge's author, or its sender when new: the author the authority rule
 *   checks (`authority.ts`).
 */

type Item = KnowledgeNode | KnowledgeEdge;

function hasVersion(item: unknown): boolean {
  const v: unknown = isJsonObject(item) ? item["ocpVersion"] : undefined;
  return typeof v === "object" && v !== null;
}

function stampOf(item: Item, fallback: string): number {
  const t = Date.parse((item as { timestamp?: string }).timestamp ?? fallback);
  if (Number.isFinite(t) && t > 0) return t;
  const f = Date.parse(fallback);
  return Number.isFinite(f) && f > 0 ? f : 1;
}

/** The nodes and edges `from` sent at `at`, each with its version (own or derived), to merge. */
export function versionedItems(
  graph: KnowledgeGraph,
  nodes: readonly KnowledgeNode[],
  edges: readonly KnowledgeEdge[],
  from: string,
  at: string,
): { kind: ItemKind; item: VersionedItem }[] {
  return [
    ...nodes.map((n) => ({
      kind: "node" as const,
      item: deriveVersion(n, from, at, graph.getNode(n.id)) as VersionedItem,
    })),
    ...edges.map((e) => ({
      kind: "edge" as const,
      item: deriveVersion(e, from, at, graph.getEdge(e.id)) as VersionedItem,
    })),
  ];
}

/** The item with a version: its own, or one derived as described above. */
export function deriveVersion<T extends Item>(
  item: T,
  from: string,
  timestamp: string,
  local: VersionedItem | undefined,
): T & { ocpVersion: VersionVector } {
  if (hasVersion(item)) return item as T & { ocpVersion: VersionVector };
  // An edge of a plain sender has no createdBy: it is the stored author's, or its sender's.
  if (
    Reflect.get(item, "createdBy") === undefined &&
    Reflect.get(item, "ocpAuthorship") === undefined
  ) {
    const author = (local as { createdBy?: unknown } | undefined)?.createdBy;
    item = { ...item, createdBy: typeof author === "string" ? author : from };
  }
  if (
    local !== undefined &&
    local.ocpDeleted !== true &&
    canonicalHash(contentOf(local)) === canonicalHash(item)
  )
    return { ...item, ocpVersion: local.ocpVersion };
  return { ...item, ocpVersion: { [from]: stampOf(item, timestamp) } };
}

/** `base` with `from`'s entry raised past both its current value and `stamp`. */
function raised(base: VersionVector, from: string, stamp: number): Record<string, number> {
  return sortedVector({ ...base, [from]: Math.max((base[from] ?? 0) + 1, stamp) });
}

/** Why an entry of an update was not merged. */
export interface UpdateSkip {
  readonly id: string;
  readonly reason: "unknown_node" | "deleted_node" | "invalid_node";
}

/**
 * The versioned items a §5.1.6 `ocp.knowledge.update` amounts to. Our own
 * senders' `tombstones`/`edgeTombstones` (already versioned) are taken as
 * they are; ids in `deletions`/`deletedEdges` they do not cover become
 * tombstones of what we hold. A `NodeUpdate` applies its `changes` to the
 * node we hold (an absent node is created when the changes make a whole
 * node); an update of a deleted node is skipped (the deletion stands).
 */
export function updateItems(
  graph: KnowledgeGraph,
  payload: KnowledgeUpdatePayload & {
    tombstones?: VersionedNode[];
    edgeTombstones?: VersionedEdge[];
  },
  from: string,
  timestamp: string,
): { items: { kind: ItemKind; item: VersionedItem }[]; skipped: UpdateSkip[] } {
  const items: { kind: ItemKind; item: VersionedItem }[] = [];
  const skipped: UpdateSkip[] = [];
  const at = Date.parse(timestamp);
  const stamp = Number.isFinite(at) && at > 0 ? at : 1;
  for (const u of payload.updates) {
    const current = graph.getNode(u.nodeId);
    if (current?.ocpDeleted === true) {
      skipped.push({ id: u.nodeId, reason: "deleted_node" });
      continue;
    }
    const { ocpVersion: given, ...changes } = u.changes as Partial<VersionedNode>;
    // contentOf drops the stored author signature: it does not cover the changed node.
    const base = current === undefined ? {} : contentOf(current);
    const merged = { ...base, ...changes, id: u.nodeId };
    if (!KnowledgeNodeSchema.safeParse(merged).success) {
      skipped.push({
        id: u.nodeId,
        reason: current === undefined ? "unknown_node" : "invalid_node",
      });
      continue;
    }
    const changeStamp = typeof changes.timestamp === "string" ? Date.parse(changes.timestamp) : NaN;
    const ocpVersion =
      given !== undefined && typeof given === "object"
        ? given
        : raised(
            current?.ocpVersion ?? {},
            from,
            Number.isFinite(changeStamp) ? changeStamp : stamp,
          );
    items.push({ kind: "node", item: { ...merged, ocpVersion } as VersionedNode });
  }
  const tombed = (kind: ItemKind, ids: readonly string[], covered: readonly VersionedItem[]) => {
    const have = new Set(covered.map((t) => t.id));
    for (const t of covered) items.push({ kind, item: t });
    for (const id of ids) {
      if (have.has(id)) continue;
      const current = kind === "node" ? graph.getNode(id) : graph.getEdge(id);
      if (current === undefined || current.ocpDeleted === true) continue;
      items.push({
        kind,
        item: {
          ...contentOf(current),
          ocpDeleted: true,
          ocpVersion: raised(current.ocpVersion, from, stamp),
        } as VersionedItem,
      });
    }
  };
  tombed("node", payload.deletions, payload.tombstones ?? []);
  for (const e of payload.newEdges)
    items.push({ kind: "edge", item: deriveVersion(e, from, timestamp, graph.getEdge(e.id)) });
  tombed("edge", payload.deletedEdges, payload.edgeTombstones ?? []);
  return { items, skipped };
}
