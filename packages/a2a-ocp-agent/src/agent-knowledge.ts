export type { EdgeConflict } from "./knowledge-conflicts.js";

import type {
  KnowledgeConflictPayload,
  KnowledgeEdge,
  KnowledgeNode,
  KnowledgeSubscribePayload,
  MessageOf,
  SyncConflictPayload,
} from "@ocp/a2a-ocp-messaging";
import { type KnowledgeRefusal, relayable, signersOf } from "./authority.js";
import type { AgentContext } from "./context.js";
import { agentError } from "./errors.js";
import {
  type ApplyResult,
  applyRemote,
  deleteLocal,
  type ItemKind,
  putLocalEdge,
  putLocalNode,
} from "./graph.js";
import { type EdgeConflict, entryKind } from "./knowledge-conflicts.js";
import { checkDeletions, planWrites } from "./knowledge-writes.js";
import {
  DEFAULT_PULL_INTERVAL_MS,
  MAX_REMEMBERED_CONFLICTS,
  MIN_PULL_INTERVAL_MS,
} from "./limits.js";
import type { VersionedEdge, VersionedItem, VersionedNode } from "./merge.js";
import { type MessageReceipt, receiptOf } from "./receipt.js";
import { deriveVersion, updateItems, versionedItems } from "./spec-version.js";
import { type Delivery, matchesFilters, SubscriptionTable } from "./subscriptions.js";
import { pageChecksum } from "./sync.js";

/** Callbacks of the knowledge service. */
export interface KnowledgeEvents {
  knowledge(nodes: KnowledgeNode[], from: string, receipt: MessageReceipt): void;
  deleted(ids: string[], from: string): void;
  conflict(conflict: KnowledgeConflictPayload, detectedBy: string): void;
  edgeConflict(conflict: EdgeConflict, detectedBy: string): void;
  /** An item received and not merged (`authority.ts`). */
  refused(refusal: KnowledgeRefusal): void;
}

type KnowledgeMessage = MessageOf<
  | "ocp.knowledge.stream"
  | "ocp.knowledge.update"
  | "ocp.knowledge.subscribe"
  | "ocp.knowledge.unsubscribe"
  | "ocp.knowledge.control"
  | "ocp.knowledge.conflict"
>;

/**
 * Knowledge streaming (§5.1.1–5.1.3, §5.1.6–5.1.7, §12.4). Edits are
 * streamed as `ocp.knowledge.stream` chunks (through the subscription table:
 * filters, push or pull, batch size, pause/resume/cancel). Deletions and
 * edge changes go as `ocp.knowledge.update`, with the tombstones and
 * versioned edges in the extension fields `tombstones` and `edgeTombstones`
 * so that receivers merge them by version. A new subscription first
 * receives the matching nodes the publisher already has
 * (`isIncremental: false`).
 */
export class KnowledgeService {
  readonly table: SubscriptionTable;
  readonly #pullTimers = new Map<string, ReturnType<typeof setInterval>>();
  readonly #reported = new Set<string>();
  /** Item id → the conflict its stored version resolved (until a local edit supersedes it). */
  readonly #conflicted = new Map<string, string>();

  constructor(
    private readonly ctx: AgentContext,
    private readonly events: KnowledgeEvents,
  ) {
    this.table = new SubscriptionTable((node, subscriber) => ctx.maySee(node, subscriber));
  }

  /**
   * This agent's edits, signed as it (`ocpAuthorship`), and relays of other
   * authors' signed items, kept unchanged; refused writes throw (knowledge-writes.ts).
   */
  async stream(nodes: readonly KnowledgeNode[], edges: readonly KnowledgeEdge[]): Promise<void> {
    const g = this.ctx.graph;
    const plannedNodes = await planWrites(this.ctx, "node", nodes);
    const plannedEdges = await planWrites(this.ctx, "edge", edges);
    const written = plannedNodes.own.map((n) => putLocalNode(g, n, this.ctx.signItem));
    const relayed = (items: VersionedItem[], kind: ItemKind) =>
      applyRemote(
        g,
        items.map((item) => ({ kind, item })),
      );
    relayed(plannedNodes.relayed, "node");
    for (const item of [...nodes, ...edges]) this.#conflicted.delete(item.id);
    await this.#deliver(this.table.offer([...written, ...plannedNodes.relayed]), true);
    if (edges.length > 0) {
      const writtenEdges = plannedEdges.own.map((e) => putLocalEdge(g, e, this.ctx.signItem));
      relayed(plannedEdges.relayed, "edge");
      await this.#update([], [...writtenEdges, ...plannedEdges.relayed], [], []);
    }
  }

  async delete(nodeIds: readonly string[], edgeIds: readonly string[]): Promise<void> {
    checkDeletions(this.ctx, "node", nodeIds);
    checkDeletions(this.ctx, "edge", edgeIds);
    for (const id of [...nodeIds, ...edgeIds]) this.#conflicted.delete(id);
    const sign = this.ctx.signItem;
    const tombs = nodeIds
      .map((id) => deleteLocal(this.ctx.graph, "node", id, sign))
      .filter((t) => t !== undefined) as VersionedNode[];
    const edgeTombs = edgeIds
      .map((id) => deleteLocal(this.ctx.graph, "edge", id, sign))
      .filter((t) => t !== undefined) as VersionedEdge[];
    await this.#update(tombs, [], edgeTombs, tombs);
  }

  async subscribe(
    publisher: string,
    request: Omit<KnowledgeSubscribePayload, "subscriptionId"> & { subscriptionId?: string },
  ): Promise<string> {
    const subscriptionId = request.subscriptionId ?? `sub-${globalThis.crypto.randomUUID()}`;
    await this.ctx.send("ocp.knowledge.subscribe", publisher, {
      ...request,
      subscriptionId,
    } as KnowledgeSubscribePayload);
    return subscriptionId;
  }

  async unsubscribe(publisher: string, subscriptionId: string): Promise<void> {
    await this.ctx.send("ocp.knowledge.unsubscribe", publisher, { subscriptionId });
  }

  async control(
    publisher: string,
    streamId: string,
    action: "pause" | "resume" | "cancel",
  ): Promise<void> {
    await this.ctx.send("ocp.knowledge.control", publisher, { streamId, action });
  }

  async handle(m: KnowledgeMessage): Promise<void> {
    switch (m.type) {
      case "ocp.knowledge.subscribe": {
        if (!this.table.add(m.from, m.payload))
          throw agentError(
            "limit_exceeded",
            `subscription id ${m.payload.subscriptionId} is taken`,
          );
        const existing = this.ctx.graph
          .liveNodes()
          .filter(
            (n) =>
              matchesFilters(n, m.payload.filters) &&
              this.ctx.maySee(n, m.from) &&
              relayable(n, this.ctx.id),
          );
        const initial =
          existing.length > 0 ? this.#initial(m.payload.subscriptionId, existing) : [];
        await this.#deliver(initial, false);
        if (m.payload.deliveryMode === "pull") this.#armPull(m.payload);
        return;
      }
      case "ocp.knowledge.unsubscribe":
        if (this.table.remove(m.from, m.payload.subscriptionId))
          this.#disarm(m.payload.subscriptionId);
        return;
      case "ocp.knowledge.control": {
        const deliveries = this.table.control(m.from, m.payload.streamId, m.payload.action);
        if (m.payload.action === "cancel") this.#disarm(m.payload.streamId);
        await this.#deliver(deliveries, true);
        return;
      }
      case "ocp.knowledge.conflict":
        // Conflict ids are the same on every replica: one we were told of is not reported again.
        this.#remember(m.payload.conflictId);
        this.events.conflict(m.payload, m.from);
        return;
      case "ocp.knowledge.stream": {
        const chunks = m.payload.batched === true ? m.payload.items : [m.payload];
        const items: { kind: ItemKind; item: VersionedItem }[] = [];
        for (const chunk of chunks) {
          if (
            chunk.checksum !== undefined &&
            chunk.checksum !== pageChecksum(chunk.nodes, chunk.edges ?? [])
          ) {
            throw agentError(
              "sync_checksum_mismatch",
              `stream ${chunk.streamId} #${chunk.sequenceNumber}: checksum mismatch`,
            );
          }
          const g = this.ctx.graph;
          items.push(...versionedItems(g, chunk.nodes, chunk.edges ?? [], m.from, m.timestamp));
        }
        await this.applied(await this.#merge(items, m.from), m.from, receiptOf(m));
        return;
      }
      case "ocp.knowledge.update": {
        const { items, skipped } = updateItems(this.ctx.graph, m.payload, m.from, m.timestamp);
        await this.applied(await this.#merge(items, m.from), m.from, receiptOf(m));
        if (skipped.length > 0)
          throw agentError(
            "update_skipped",
            `update from ${m.from}: ${skipped.map((s) => `${s.id} (${s.reason})`).join(", ")}`,
            { details: { skipped } },
          );
        return;
      }
    }
  }

  /** Knowledge `from` sent over another authenticated channel (an A2A task): merged as its stream would be. */
  async receive(
    nodes: readonly KnowledgeNode[],
    edges: readonly KnowledgeEdge[],
    from: string,
    receipt: MessageReceipt,
  ): Promise<ApplyResult> {
    const at = new Date(this.ctx.now()).toISOString();
    const items = versionedItems(this.ctx.graph, nodes, edges, from, at);
    const result = await this.#merge(items, from);
    await this.applied(result, from, receipt);
    return result;
  }

  /** Merges items received from `from`, each only when its signer may write it (authority.ts). */
  async #merge(
    items: { kind: ItemKind; item: VersionedItem }[],
    from: string,
  ): Promise<ApplyResult> {
    const { signed, refused } = await signersOf(items, from, this.ctx.lookupKey);
    const result = applyRemote(
      this.ctx.graph,
      signed.map((s) => ({ ...s, from })),
    );
    return { ...result, refused: [...refused, ...result.refused] };
  }

  /** Reports what a merge did (and the message it came in): refusals, new knowledge, deletions, and each conflict once (also to `from`). */
  async applied(result: ApplyResult, from: string, receipt: MessageReceipt): Promise<void> {
    for (const refusal of result.refused) this.events.refused(refusal);
    const live = result.applied.filter(
      (i) => i.ocpDeleted !== true && "title" in i,
    ) as VersionedNode[];
    const deleted = result.applied
      .filter((i) => i.ocpDeleted === true && "title" in i)
      .map((i) => i.id);
    if (live.length > 0) this.events.knowledge(live, from, receipt);
    if (deleted.length > 0) this.events.deleted(deleted, from);
    for (let i = 0; i < result.conflicts.length; i++) {
      const c = result.conflicts[i];
      if (c === undefined) continue;
      if (this.#conflicted.size >= MAX_REMEMBERED_CONFLICTS) this.#conflicted.clear();
      this.#conflicted.set(c.local.id, c.conflictId);
      if (this.#reported.has(c.conflictId)) continue;
      this.#remember(c.conflictId);
      if (result.conflictKinds[i] === "edge") {
        const conflict: EdgeConflict = {
          conflictId: c.conflictId,
          edgeId: c.local.id,
          localVersion: c.local as VersionedEdge,
          remoteVersion: c.remote as VersionedEdge,
          conflictType: c.conflictType,
          suggestedResolution: c.resolved as VersionedEdge,
        };
        this.events.edgeConflict(conflict, this.ctx.id);
        const { edgeId, ...rest } = conflict;
        await this.ctx.send("ocp.sync.conflict", from, {
          syncId: c.conflictId,
          conflicts: [{ type: "knowledge.edge", itemId: edgeId, ...rest }],
        });
        continue;
      }
      const payload: KnowledgeConflictPayload = {
        conflictId: c.conflictId,
        nodeId: c.local.id,
        localVersion: c.local as VersionedNode,
        remoteVersion: c.remote as VersionedNode,
        conflictType: c.conflictType,
        suggestedResolution: c.resolved as VersionedNode,
      };
      this.events.conflict(payload, this.ctx.id);
      // §8.5: the other side hears of it only if it may see our version too.
      if (this.ctx.maySee(payload.localVersion, from))
        await this.ctx.send("ocp.knowledge.conflict", from, payload);
    }
  }

  #remember(conflictId: string): void {
    if (this.#reported.size >= MAX_REMEMBERED_CONFLICTS) this.#reported.clear();
    this.#reported.add(conflictId);
  }

  /** Whether the stored version of an item resolved a conflict no local edit has superseded. */
  isConflicted(id: string): boolean {
    return this.#conflicted.has(id);
  }

  /**
   * An incoming §5.6.5 `ocp.sync.conflict` (after a sync, or an edge conflict
   * report): edge entries are reported as `edgeConflict`; the sender's own
   * version of every node or edge entry (`localVersion`, on its side) is
   * merged here, so both sides resolve the conflict the same way.
   */
  async reported(payload: SyncConflictPayload, from: string, receipt: MessageReceipt, at: string) {
    const items: { kind: ItemKind; item: VersionedItem }[] = [];
    for (const entry of payload.conflicts) {
      const kind = entryKind(entry);
      if (kind === undefined) continue;
      const theirs = entry.localVersion as KnowledgeNode & KnowledgeEdge;
      if (kind === "edge" && !this.#reported.has(String(entry["conflictId"] ?? ""))) {
        this.events.edgeConflict(
          {
            conflictId: String(entry["conflictId"] ?? payload.syncId),
            edgeId: entry.itemId,
            localVersion: entry.localVersion as KnowledgeEdge,
            remoteVersion: entry.remoteVersion as KnowledgeEdge,
            conflictType: (entry["conflictType"] as EdgeConflict["conflictType"]) ?? "content",
          },
          from,
        );
      }
      const local =
        kind === "node" ? this.ctx.graph.getNode(theirs.id) : this.ctx.graph.getEdge(theirs.id);
      items.push({ kind, item: deriveVersion(theirs, from, at, local) as VersionedItem });
    }
    if (items.length > 0) await this.applied(await this.#merge(items, from), from, receipt);
  }

  close(): void {
    for (const id of [...this.#pullTimers.keys()]) this.#disarm(id);
  }

  #initial(subscriptionId: string, nodes: VersionedNode[]): Delivery[] {
    const sub = this.table.get(subscriptionId);
    if (sub === undefined) return [];
    sub.pending.push(...nodes);
    return sub.request.deliveryMode === "push" ? this.table.flush(subscriptionId) : [];
  }

  #armPull(request: KnowledgeSubscribePayload): void {
    this.#disarm(request.subscriptionId);
    const everyMs =
      request.frequency === undefined
        ? DEFAULT_PULL_INTERVAL_MS
        : Math.max(MIN_PULL_INTERVAL_MS, request.frequency * 1000);
    const timer = setInterval(() => {
      void this.#deliver(this.table.flush(request.subscriptionId), true).catch(() => undefined);
    }, everyMs);
    this.#pullTimers.set(request.subscriptionId, timer);
  }

  #disarm(subscriptionId: string): void {
    const timer = this.#pullTimers.get(subscriptionId);
    if (timer !== undefined) clearInterval(timer);
    this.#pullTimers.delete(subscriptionId);
  }

  async #deliver(deliveries: readonly Delivery[], incremental: boolean): Promise<void> {
    for (const d of deliveries) {
      await this.ctx.send("ocp.knowledge.stream", d.subscriber, {
        streamId: d.streamId,
        nodes: d.nodes,
        edges: [],
        isIncremental: incremental,
        sequenceNumber: d.sequenceNumber,
        checksum: pageChecksum(d.nodes, []),
      });
    }
  }

  /** Sends deletions and edge changes to the subscribers whose filters match an affected node. */
  async #update(
    tombs: VersionedNode[],
    edges: VersionedEdge[],
    edgeTombs: VersionedEdge[],
    affected: VersionedNode[],
  ): Promise<void> {
    const touched = [...affected];
    for (const e of [...edges, ...edgeTombs]) {
      for (const id of [e.source, e.target]) {
        const n = this.ctx.graph.getNode(id);
        if (n !== undefined) touched.push(n);
      }
    }
    const subscribers = new Set<string>();
    for (const n of touched) for (const s of this.table.matching(n)) subscribers.add(s.subscriber);
    for (const subscriber of subscribers) {
      const visible = tombs.filter((t) => this.ctx.maySee(t, subscriber));
      await this.ctx.send("ocp.knowledge.update", subscriber, {
        updates: [],
        deletions: visible.map((t) => t.id),
        newEdges: edges,
        deletedEdges: edgeTombs.map((e) => e.id),
        tombstones: visible,
        edgeTombstones: edgeTombs,
      });
    }
  }
}
