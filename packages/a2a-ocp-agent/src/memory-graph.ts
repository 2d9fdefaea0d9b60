import type { ChangeRecord, ItemKind, KnowledgeGraph } from "./graph.js";
import type { VersionedEdge, VersionedItem, VersionedNode } from "./merge.js";

/**
 * A {@link KnowledgeGraph} in memory. The change log is a Map in write order:
 * a rewrite moves the item to the end, so iteration is in sequence order and
 * `changesSince` needs no sort.
 */
export class MemoryGraph implements KnowledgeGraph {
  readonly #nodes = new Map<string, VersionedNode>();
  readonly #edges = new Map<string, VersionedEdge>();
  readonly #log = new Map<string, ChangeRecord>();
  readonly #watermarks = new Map<string, number>();
  #seq = 0;
  #editCounter = 0;

  constructor(readonly replicaId: string) {}

  getNode(id: string): VersionedNode | undefined {
    return this.#nodes.get(id);
  }

  getEdge(id: string): VersionedEdge | undefined {
    return this.#edges.get(id);
  }

  write(kind: ItemKind, item: VersionedItem): void {
    if (kind === "node") this.#nodes.set(item.id, item as VersionedNode);
    else this.#edges.set(item.id, item as VersionedEdge);
    const key = `${kind}:${item.id}`;
    this.#log.delete(key);
    this.#seq += 1;
    this.#log.set(key, { kind, seq: this.#seq, item });
  }

  liveNodes(): VersionedNode[] {
    return [...this.#nodes.values()].filter((n) => n.ocpDeleted !== true);
  }

  liveEdges(): VersionedEdge[] {
    return [...this.#edges.values()].filter((e) => e.ocpDeleted !== true);
  }

  *changesSince(seq: number): Iterable<ChangeRecord> {
    for (const record of this.#log.values()) if (record.seq > seq) yield record;
  }

  changeSeq(): number {
    return this.#seq;
  }

  nextEditCounter(): number {
    this.#editCounter += 1;
    return this.#editCounter;
  }

  watermark(peer: string): number {
    return this.#watermarks.get(peer) ?? 0;
  }

  setWatermark(peer: string, seq: number): void {
    this.#watermarks.set(peer, seq);
  }

  transaction<R>(fn: () => R): R {
    return fn();
  }

  close(): void {}
}
