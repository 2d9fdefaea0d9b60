import type { KnowledgeEdge, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { authorize, type KnowledgeRefusal } from "./authority.js";
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
 * `changesSince(n)`. Implementations: {@link MemoryGraph}, `SqliteGraph`.
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
  /** Items not merged because their signer may not write them (see `authority.ts`). */
  readonly refused: KnowledgeRefusal[];
}

/** Signs a new local version (the agent's author signature); identity when absent. */
export type ItemSigner = <T extends VersionedItem>(item: T) => T;

function get(graph: KnowledgeGraph, kind: ItemKind, id: string): VersionedItem | undefined {
  return kind === "node" ? graph.getNode(id) : graph.getEdge(id);
}

function stamp<T extends VersionedItem>(
  graph: KnowledgeGraph,
  kind: ItemKind,
  item: T,
  previous: VersionVector,
  sign: ItemSigner | undefined,
): T {
  const counter = graph.nextEditCounter();
  const { ocpAuthorship: _stale, ...unsigned } = item as T & { ocpAuthorship?: unknown };
  const versioned = {
    ...unsigned,
    ocpVersion: withEntry(previous, graph.replicaId, counter),
  } as unknown as T;
  const value = sign === undefined ? versioned : sign(versioned);
  graph.write(kind, value);
  return value;
}

/**
 * A local edit of a node: a new version that dominates the one it replaces,
 * signed with `sign` (the agent's author signature) when given.
 */
export function putLocalNode(
  graph: KnowledgeGraph,
  node: KnowledgeNode,
  sign?: ItemSigner,
): VersionedNode {
  return graph.transaction(() => {
    const { ocpVersion: _v, ocpDeleted: _d, ...content } = node as VersionedNode;
    const previous = graph.getNode(node.id)?.ocpVersion ?? {};
    return stamp(graph, "node", content as VersionedNode, previous, sign);
  });
}

/** A local edit of an edge. */
export function putLocalEdge(
  graph: KnowledgeGraph,
  edge: KnowledgeEdge,
  sign?: ItemSigner,
): VersionedEdge {
  return graph.transaction(() => {
    const { ocpVersion: _v, ocpDeleted: _d, ...content } = edge as VersionedEdge;
    const previous = graph.getEdge(edge.id)?.ocpVersion ?? {};
    return stamp(graph, "edge", content as VersionedEdge, previous, sign);
  });
}

/** A local deletion: a tombstone that dominates the deleted version. Undefined when absent. */
export function deleteLocal(
  graph: KnowledgeGraph,
  kind: ItemKind,
  id: string,
  sign?: ItemSigner,
): VersionedItem | undefined {
  return graph.transaction(() => {
    const current = get(graph, kind, id);
    if (current === undefined || current.ocpDeleted === true) return undefined;
    return stamp(graph, kind, { ...current, ocpDeleted: true }, current.ocpVersion, sign);
  });
}

/**
 * Merges incoming versions (a stream, an update, a sync page) into the
 * graph. An item with a `signer` (the agent whose authority it carries, see
 * `authority.ts`) is merged only when that signer may write it over what the
 * graph holds; otherwise it is listed in `refused` and nothing of it is
 * written. Items without a signer are merged as trusted (a local replica's).
 */
export function applyRemote(
  graph: KnowledgeGraph,
  items: ReadonlyArray<{ kind: ItemKind; item: VersionedItem; signer?: string; from?: string }>,
): ApplyResult {
  return graph.transaction(() => {
    const applied: VersionedItem[] = [];
    const conflicts: MergeConflict<VersionedItem>[] = [];
    const conflictKinds: ItemKind[] = [];
    const refused: KnowledgeRefusal[] = [];
    for (const { kind, item, signer, from } of items) {
      const local = get(graph, kind, item.id);
      if (signer !== undefined) {
        const denied = authorize(local, item, signer);
        if (denied !== undefined) {
          refused.push({ kind, itemId: item.id, ...denied, from: from ?? signer, signer, item });
          continue;
        }
      }
      const outcome = mergeItem(local, item);
      if (outcome.action === "keep") continue;
      if (outcome.action === "conflict") {
        conflicts.push(outcome.conflict);
        conflictKinds.push(kind);
      }
      // A signed local version that wins its conflict stays as it is (its signature intact).
      if (outcome.value === local) continue;
      graph.write(kind, outcome.value);
      applied.push(outcome.value);
    }
    return { applied, conflicts, conflictKinds, refused };
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
