import type { KnowledgeEdge, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import {
  type MergeConflict,
  mergeItem,
  type VersionedEdge,
  type VersionedItem,
  type VersionedNode,
} from "./merge.js";
import { type VersionVector, withEntry } from "./version-vector.js";

/** A node or an edge. */
export type ItemKind = "node" | "edge";

/** One entry of a graph's change log: the item as it now stands and when it last changed. */
export interface ChangeRecord {
  readonly kind: ItemKind;
  /** The replica-local change sequence of this write (1, 2, 3 ...). */
  readonly seq: number;
  readonly item: VersionedItem;
}

/**
 * The storage of a local knowledge graph (§5.1): nodes and edges with their
 * versions, tombstones included, and a change log. Every write takes the next
 * change sequence number; `changesSince(n)` yields what changed after `n`,
 * oldest first, one record per item (its latest write). Delta sync is built
 * on that log: a peer that has seen this replica's log up to `n` needs only
 * `changesSince(n)`. Implementations: {@link MemoryGraph}, {@link SqliteGraph}.
 */
export interface KnowledgeGraph {
  /** The replica's own id (the agent URI); its entry in version vectors. */
  readonly replicaId: string;
  getNode(id: string): VersionedNode | undefined;
  getEdge(id: string): VersionedEdge | undefined;
  /** Stores the item and gives it the next change sequence. */
  write(kind: ItemKind, item: VersionedItem): void;
  /** Nodes that are not tombstones. */
  liveNodes(): VersionedNode[];
  /** Edges that are not tombstones. */
  liveEdges(): VersionedEdge[];
  /** Changes with a sequence above `seq`, oldest first. */
  changesSince(seq: number): Iterable<ChangeRecord>;
  /** The sequence of the latest write (0 when empty). */
  changeSeq(): number;
  /** Raises and returns this replica's edit counter (its next version-vector entry). */
  nextEditCounter(): number;
  /** The highest change sequence of `peer` this replica has fully synced (0 when none). */
  watermark(peer: string): number;
  setWatermark(peer: string, seq: number): void;
  /** Runs `fn` atomically where the storage supports it. */
  transaction<R>(fn: () => R): R;
  close(): void;
}

/** The result of merging incoming items into a graph. */
export interface ApplyResult {
  /** Items inserted or replaced (the conflict winners included). */
  readonly applied: ChangeRecord["item"][];
  readonly conflicts: MergeConflict<VersionedItem>[];
  /** Kind of each conflict, in the same order. */
  readonly conflictKinds: ItemKind[];
}

function get(graph: KnowledgeGraph, kind: ItemKind, id: string): VersionedItem | undefined {
  return kind === "node" ? graph.getNode(id) : graph.getEdge(id);
}

function stamp<T extends VersionedItem>(
  graph: KnowledgeGraph,
  kind: ItemKind,
  item: T,
  previous: VersionVector,
): T {
  const counter = graph.nextEditCounter();
  const value = { ...item, ocpVersion: withEntry(previous, graph.replicaId, counter) } as T;
  graph.write(kind, value);
  return value;
}

/** A local edit of a node: a new version that dominates the one it replaces. */
export function putLocalNode(graph: KnowledgeGraph, node: KnowledgeNode): VersionedNode {
  return graph.transaction(() => {
    const { ocpVersion: _v, ocpDeleted: _d, ...content } = node as VersionedNode;
    return stamp(graph, "node", content as VersionedNode, graph.getNode(node.id)?.ocpVersion ?? {});
  });
}

/** A local edit of an edge. */
export function putLocalEdge(graph: KnowledgeGraph, edge: KnowledgeEdge): VersionedEdge {
  return graph.transaction(() => {
    const { ocpVersion: _v, ocpDeleted: _d, ...content } = edge as VersionedEdge;
    return stamp(graph, "edge", content as VersionedEdge, graph.getEdge(edge.id)?.ocpVersion ?? {});
  });
}

/** A local deletion: a tombstone that dominates the deleted version. Undefined when absent. */
export function deleteLocal(
  graph: KnowledgeGraph,
  kind: ItemKind,
  id: string,
): VersionedItem | undefined {
  return graph.transaction(() => {
    const current = get(graph, kind, id);
    if (current === undefined || current.ocpDeleted === true) return undefined;
    return stamp(graph, kind, { ...current, ocpDeleted: true }, current.ocpVersion);
  });
}

/** Merges incoming versions (a stream, an update, a sync page) into the graph. */
export function applyRemote(
  graph: KnowledgeGraph,
  items: ReadonlyArray<{ kind: ItemKind; item: VersionedItem }>,
): ApplyResult {
  return graph.transaction(() => {
    const applied: VersionedItem[] = [];
    const conflicts: MergeConflict<VersionedItem>[] = [];
    const conflictKinds: ItemKind[] = [];
    for (const { kind, item } of items) {
      const outcome = mergeItem(get(graph, kind, item.id), item);
      if (outcome.action === "keep") continue;
      graph.write(kind, outcome.value);
      applied.push(outcome.value);
      if (outcome.action === "conflict") {
        conflicts.push(outcome.conflict);
        conflictKinds.push(kind);
      }
    }
    return { applied, conflicts, conflictKinds };
  });
}

/** Versioned items of a graph as a sorted, comparable snapshot (tests, digests). */
export function snapshot(graph: KnowledgeGraph): {
  nodes: VersionedNode[];
  edges: VersionedEdge[];
} {
  const nodes: VersionedNode[] = [];
  const edges: VersionedEdge[] = [];
  for (const change of graph.changesSince(0)) {
    if (change.kind === "node") nodes.push(change.item as VersionedNode);
    else edges.push(change.item as VersionedEdge);
  }
  const byId = (a: VersionedItem, b: VersionedItem) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return { nodes: nodes.sort(byId), edges: edges.sort(byId) };
}
