import type {
  KeyLookup,
  KnowledgeSyncRequestPayload,
  KnowledgeSyncResponsePayload,
} from "@ocp/a2a-ocp-messaging";
import { signersOf } from "./authority.js";
import { agentError } from "./errors.js";
import { type ApplyResult, applyRemote, type ItemKind, type KnowledgeGraph } from "./graph.js";
import { SYNC_PAGE_ITEMS } from "./limits.js";
import {
  canonicalHash,
  type VersionedEdge,
  type VersionedItem,
  type VersionedNode,
} from "./merge.js";
import { deriveVersion } from "./spec-version.js";
import { nodeDomains } from "./subscriptions.js";

/**
 * Delta sync (§5.1.4, §5.1.5). The `versionVector` of a sync request maps
 * replica ids to change-log sequences: entry `R[x]` says "I have merged
 * replica x's change log up to R[x]". Replica x answers with its changes
 * after `R[x]` (all of them when the entry or the vector is absent), in pages
 * of at most {@link SYNC_PAGE_ITEMS} items. Each page's `checksum` is the
 * SHA-256 (hex) of the RFC 8785 canonical JSON of `{ nodes, edges }`; the
 * receiver recomputes it and refuses a page that differs. Every page carries
 * `versionVector: { [x]: snapshot }`, the log position the answer covers;
 * after the last page (`isComplete`) of an unfiltered sync the receiver
 * records it as its new watermark for x.
 *
 * Nodes the requester may not see (§8.5, the `maySee` argument) are left
 * out; a later change of their visibility is a new write, so it is sent then.
 * So are items `relay` refuses (the agent passes `relayable`: another
 * author's item without its author signature, which receivers refuse).
 *
 * A change log rather than the items' own vectors decides what is sent
 * because a replica can hold a later version from one origin and miss an
 * earlier one of another node (messages arrive out of order, via third
 * parties); a log position has no such gaps.
 */

/** SHA-256 (hex) of a page's canonical `{ nodes, edges }`. */
export function pageChecksum(nodes: readonly unknown[], edges: readonly unknown[]): string {
  return canonicalHash({ nodes, edges });
}

/** Whether a page's checksum matches its content. */
export function verifyPage(page: KnowledgeSyncResponsePayload): boolean {
  return pageChecksum(page.nodes, page.edges) === page.checksum;
}

function passes(node: VersionedNode, filters: KnowledgeSyncRequestPayload["filters"]): boolean {
  if (filters === undefined) return true;
  if (filters.domains !== undefined && filters.domains.length > 0) {
    const domains = nodeDomains(node);
    if (!filters.domains.some((d) => domains.includes(d))) return false;
  }
  if (
    filters.updatedAfter !== undefined &&
    Date.parse(node.timestamp) <= Date.parse(filters.updatedAfter)
  ) {
    return false;
  }
  return true;
}

/**
 * The pages answering `request` from `graph`: only the changes after the
 * requester's watermark for this replica. Always at least one page (an empty,
 * complete one when nothing changed).
 */
export function* deltaPages(
  graph: KnowledgeGraph,
  request: KnowledgeSyncRequestPayload,
  pageItems: number = SYNC_PAGE_ITEMS,
  maySee: (node: VersionedNode) => boolean = () => true,
  relay: (item: VersionedItem) => boolean = () => true,
): Generator<KnowledgeSyncResponsePayload> {
  const from = request.versionVector?.[graph.replicaId] ?? 0;
  const snapshot = graph.changeSeq();
  const versionVector = { [graph.replicaId]: snapshot };
  let nodes: VersionedNode[] = [];
  let edges: VersionedEdge[] = [];
  const page = (isComplete: boolean): KnowledgeSyncResponsePayload => {
    const out = {
      syncId: request.syncId,
      nodes,
      edges,
      versionVector,
      isComplete,
      checksum: pageChecksum(nodes, edges),
    };
    nodes = [];
    edges = [];
    return out;
  };
  for (const change of graph.changesSince(from)) {
    if (change.seq > snapshot) break;
    if (!relay(change.item)) continue;
    if (change.kind === "node") {
      if (
        !passes(change.item as VersionedNode, request.filters) ||
        !maySee(change.item as VersionedNode)
      )
        continue;
      nodes.push(change.item as VersionedNode);
    } else {
      edges.push(change.item as VersionedEdge);
    }
    if (nodes.length + edges.length >= pageItems) yield page(false);
  }
  yield page(true);
}

/**
 * The items of a page as {@link applyRemote} takes them. Items without our
 * `ocpVersion` (a plain a2a+ocp peer) get a version derived from what they
 * carry (`deriveVersion`); `at` is the page's message timestamp.
 */
export function pageItems(
  graph: KnowledgeGraph,
  page: KnowledgeSyncResponsePayload,
  peer: string,
  at: string,
): { kind: ItemKind; item: VersionedItem }[] {
  const out: { kind: ItemKind; item: VersionedItem }[] = [];
  for (const node of page.nodes)
    out.push({ kind: "node", item: deriveVersion(node, peer, at, graph.getNode(node.id)) });
  for (const edge of page.edges)
    out.push({ kind: "edge", item: deriveVersion(edge, peer, at, graph.getEdge(edge.id)) });
  return out;
}

/** Receives the pages of one sync from `peer` in order. */
export class SyncReceiver {
  #items = 0;
  #conflicts = 0;
  #done = false;

  constructor(
    private readonly graph: KnowledgeGraph,
    private readonly peer: string,
    private readonly filtered: boolean,
  ) {}

  /**
   * Verifies and merges one page from a trusted replica (no authority
   * check); a page whose checksum differs throws and merges nothing.
   */
  accept(page: KnowledgeSyncResponsePayload, at = new Date().toISOString()): ApplyResult {
    this.#check(page);
    return this.#merge(page, applyRemote(this.graph, pageItems(this.graph, page, this.peer, at)));
  }

  /**
   * {@link accept} for a page from another agent: each item is merged only
   * when its signer may write it (`authority.ts`), keys from `lookupKey`.
   */
  async acceptFrom(
    page: KnowledgeSyncResponsePayload,
    at: string,
    lookupKey: KeyLookup,
  ): Promise<ApplyResult> {
    this.#check(page);
    const { signed, refused } = await signersOf(
      pageItems(this.graph, page, this.peer, at),
      this.peer,
      lookupKey,
    );
    const result = applyRemote(
      this.graph,
      signed.map((s) => ({ ...s, from: this.peer })),
    );
    return this.#merge(page, { ...result, refused: [...refused, ...result.refused] });
  }

  #check(page: KnowledgeSyncResponsePayload): void {
    if (this.#done) throw agentError("sync_failed", `sync ${page.syncId} already complete`);
    if (!verifyPage(page))
      throw agentError("sync_checksum_mismatch", `sync ${page.syncId}: page checksum mismatch`);
  }

  #merge(page: KnowledgeSyncResponsePayload, result: ApplyResult): ApplyResult {
    // Only what was merged counts: items we already had (or had newer) do not.
    this.#items += result.applied.length;
    this.#conflicts += result.conflicts.length;
    if (page.isComplete) {
      this.#done = true;
      const seq = page.versionVector[this.peer];
      if (!this.filtered && seq !== undefined && seq > this.graph.watermark(this.peer)) {
        this.graph.setWatermark(this.peer, seq);
      }
    }
    return result;
  }

  get complete(): boolean {
    return this.#done;
  }
  get itemsSynced(): number {
    return this.#items;
  }
  get conflicts(): number {
    return this.#conflicts;
  }
}

/** The version vector a replica sends when it asks `peers` for a delta. */
export function requestVector(
  graph: KnowledgeGraph,
  peers: readonly string[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const peer of peers) out[peer] = graph.watermark(peer);
  return out;
}
