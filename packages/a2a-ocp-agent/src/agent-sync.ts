import type {
  AwarenessResponsePayload,
  KnowledgeNode,
  KnowledgeSyncRequestPayload,
  KnowledgeSyncResponsePayload,
  MessageOf,
  SyncConflictPayload,
} from "@ocp/a2a-ocp-messaging";
import { relayable } from "./authority.js";
import type { AgentContext } from "./context.js";
import { agentError } from "./errors.js";
import type { ApplyResult } from "./graph.js";
import { SYNC_PAGE_ITEMS, SYNC_STEP_TIMEOUT_MS } from "./limits.js";
import { type MessageReceipt, receiptOf } from "./receipt.js";
import { replyAddress } from "./reply.js";
import { deltaPages, requestVector, SyncReceiver } from "./sync.js";

/** The outcome of one sync, as the requester saw it. */
export interface SyncReport {
  readonly syncId: string;
  readonly peer: string;
  readonly itemsSynced: number;
  readonly conflicts: number;
  /** Bytes of the pages (JSON) received. */
  readonly bytesTransferred: number;
  readonly pages: number;
  readonly awarenessEntries: number;
  readonly durationMs: number;
}

/** Options of the generic sync exchange (§5.6.1). */
export interface SyncOptions {
  /** Only what changed after this ISO 8601 time (a responder without our version vectors uses it). */
  readonly lastSyncedAt?: string;
  /** The responder sends its offer, pages and completion with this envelope priority. */
  readonly priority?: "low" | "normal" | "high";
}

/** What the sync service needs from the agent besides the context. */
export interface SyncHooks {
  applied(result: ApplyResult, from: string, receipt: MessageReceipt): void;
  /** Whether the stored version of an item resolved a conflict (counted in `conflicts` of our completions). */
  isConflicted(id: string): boolean;
  /** An incoming `ocp.sync.conflict`. */
  conflictReport(
    payload: SyncConflictPayload,
    from: string,
    receipt: MessageReceipt,
    at: string,
  ): Promise<void>;
  awarenessEntries(): AwarenessResponsePayload["agents"];
  mergeAwareness(agents: AwarenessResponsePayload["agents"]): void;
}

interface Session {
  readonly peer: string;
  readonly scope: readonly string[];
  readonly receiver: SyncReceiver;
  readonly started: number;
  bytes: number;
  pages: number;
  awareness: number;
  conflicts: Array<{ type: string; itemId: string; localVersion: unknown; remoteVersion: unknown }>;
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve(report: SyncReport): void;
  reject(error: unknown): void;
}

/**
 * Sync (§5.1.4–5.1.5, §5.6), both roles. `syncKnowledge` is the direct
 * knowledge exchange: request with a version vector → pages. `sync` is the
 * generic exchange: `ocp.sync.request` (scope `knowledge` and/or
 * `awareness`; the request carries the knowledge `versionVector` as an
 * extension field) → `ocp.sync.offer` (size, types, estimate) →
 * `ocp.sync.accept` → knowledge pages and one `ocp.awareness.response`
 * (queryId = syncId) → `ocp.sync.complete`; the requester answers
 * `ocp.sync.conflict` to the responder when merging raised conflicts. Every
 * step waits at most {@link SYNC_STEP_TIMEOUT_MS}.
 */
export class SyncService {
  readonly #sessions = new Map<string, Session>();
  /** Responder side: prepared answers waiting for `ocp.sync.accept`. */
  readonly #offers = new Map<
    string,
    {
      to: string;
      pages: KnowledgeSyncResponsePayload[];
      scope: readonly string[];
      started: number;
      priority: "low" | "normal" | "high";
    }
  >();

  constructor(
    private readonly ctx: AgentContext,
    private readonly hooks: SyncHooks,
  ) {}

  syncKnowledge(
    peer: string,
    filters?: KnowledgeSyncRequestPayload["filters"],
  ): Promise<SyncReport> {
    const syncId = `sync-${globalThis.crypto.randomUUID()}`;
    const done = this.#open(syncId, peer, ["knowledge"], filters !== undefined);
    const payload = {
      syncId,
      versionVector: requestVector(this.ctx.graph, [peer]),
      ...(filters === undefined ? {} : { filters }),
    };
    this.ctx.send("ocp.knowledge.sync.request", peer, payload).catch((e) => this.#fail(syncId, e));
    return done;
  }

  sync(
    peer: string,
    scope: readonly ("knowledge" | "awareness")[] = ["knowledge", "awareness"],
    options: SyncOptions = {},
  ): Promise<SyncReport> {
    const syncId = `sync-${globalThis.crypto.randomUUID()}`;
    this.#generic.add(syncId);
    const done = this.#open(syncId, peer, scope, false);
    const payload = {
      syncId,
      scope: [...scope],
      priority: options.priority ?? "normal",
      ...(options.lastSyncedAt === undefined ? {} : { lastSyncedAt: options.lastSyncedAt }),
      versionVector: requestVector(this.ctx.graph, [peer]),
    };
    this.ctx.send("ocp.sync.request", peer, payload).catch((e) => this.#fail(syncId, e));
    return done;
  }

  async handle(
    message: MessageOf<
      | "ocp.knowledge.sync.request"
      | "ocp.knowledge.sync.response"
      | "ocp.sync.request"
      | "ocp.sync.offer"
      | "ocp.sync.accept"
      | "ocp.sync.complete"
      | "ocp.sync.conflict"
      | "ocp.awareness.response"
    >,
  ): Promise<boolean> {
    switch (message.type) {
      case "ocp.knowledge.sync.request": {
        const to = replyAddress(message);
        const maySee = (n: KnowledgeNode) =>
          this.ctx.maySee(n, message.from) && this.ctx.maySee(n, to);
        const pages = deltaPages(this.ctx.graph, message.payload, SYNC_PAGE_ITEMS, maySee, (i) =>
          relayable(i, this.ctx.id),
        );
        for (const page of pages) {
          await this.ctx.send("ocp.knowledge.sync.response", to, page, {
            correlationId: message.id,
          });
        }
        return true;
      }
      case "ocp.knowledge.sync.response":
        return await this.#page(
          message.from,
          message.payload,
          receiptOf(message),
          message.timestamp,
        );
      case "ocp.sync.request": {
        const { scope, lastSyncedAt } = message.payload;
        const priority = message.payload.priority ?? "normal";
        const raw: unknown = Reflect.get(message.payload, "versionVector");
        const versionVector =
          typeof raw === "object" && raw !== null ? (raw as Record<string, number>) : undefined;
        // Our version vectors say exactly what the requester lacks; without them, lastSyncedAt does.
        const filters =
          versionVector === undefined && lastSyncedAt !== undefined
            ? { filters: { updatedAfter: lastSyncedAt } }
            : {};
        const pages = scope.includes("knowledge")
          ? [
              ...deltaPages(
                this.ctx.graph,
                {
                  syncId: message.payload.syncId,
                  ...(versionVector === undefined ? {} : { versionVector }),
                  ...filters,
                },
                SYNC_PAGE_ITEMS,
                (n) => this.ctx.maySee(n, message.from),
                (i) => relayable(i, this.ctx.id),
              ),
            ]
          : [];
        const dataSize = pages.reduce((n, p) => n + JSON.stringify(p).length, 0);
        this.#offers.set(message.payload.syncId, {
          to: message.from,
          pages,
          scope,
          started: this.ctx.now(),
          priority,
        });
        await this.ctx.send(
          "ocp.sync.offer",
          message.from,
          {
            syncId: message.payload.syncId,
            dataSize,
            dataTypes: [...scope],
            estimatedTime: Math.ceil(dataSize / 10_000_000),
          },
          { priority },
        );
        return true;
      }
      case "ocp.sync.offer": {
        const session = this.#sessions.get(message.payload.syncId);
        if (session === undefined || session.peer !== message.from) return false;
        this.#touch(message.payload.syncId);
        await this.ctx.send("ocp.sync.accept", message.from, {
          syncId: message.payload.syncId,
          accepted: true,
        });
        return true;
      }
      case "ocp.sync.accept": {
        const offer = this.#offers.get(message.payload.syncId);
        if (offer === undefined || offer.to !== message.from) return false;
        this.#offers.delete(message.payload.syncId);
        if (!message.payload.accepted) return true;
        const { priority } = offer;
        let bytes = 0;
        let items = 0;
        let conflicts = 0;
        for (const page of offer.pages) {
          bytes += JSON.stringify(page).length;
          items += page.nodes.length + page.edges.length;
          for (const item of [...page.nodes, ...page.edges])
            if (this.hooks.isConflicted(item.id)) conflicts += 1;
          await this.ctx.send("ocp.knowledge.sync.response", message.from, page, { priority });
        }
        if (offer.scope.includes("awareness")) {
          const agents = this.hooks.awarenessEntries();
          items += agents.length;
          await this.ctx.send(
            "ocp.awareness.response",
            message.from,
            { queryId: message.payload.syncId, agents },
            { priority },
          );
        }
        await this.ctx.send(
          "ocp.sync.complete",
          message.from,
          {
            syncId: message.payload.syncId,
            bytesTransferred: bytes,
            itemsSynced: items,
            conflicts,
            duration: this.ctx.now() - offer.started,
          },
          { priority },
        );
        return true;
      }
      case "ocp.awareness.response": {
        const session = this.#sessions.get(message.payload.queryId);
        if (session === undefined || session.peer !== message.from) return false;
        this.hooks.mergeAwareness(message.payload.agents);
        session.awareness += message.payload.agents.length;
        return true;
      }
      case "ocp.sync.complete": {
        const session = this.#sessions.get(message.payload.syncId);
        if (session === undefined || session.peer !== message.from) return false;
        this.#finish(message.payload.syncId, session);
        if (session.conflicts.length > 0) {
          await this.ctx.send("ocp.sync.conflict", message.from, {
            syncId: message.payload.syncId,
            conflicts: session.conflicts,
          });
        }
        return true;
      }
      case "ocp.sync.conflict":
        await this.hooks.conflictReport(
          message.payload,
          message.from,
          receiptOf(message),
          message.timestamp,
        );
        return true;
    }
  }

  close(error: unknown): void {
    for (const syncId of [...this.#sessions.keys()]) this.#fail(syncId, error);
  }

  #open(
    syncId: string,
    peer: string,
    scope: readonly string[],
    filtered: boolean,
  ): Promise<SyncReport> {
    return new Promise<SyncReport>((resolve, reject) => {
      this.#sessions.set(syncId, {
        peer,
        scope,
        receiver: new SyncReceiver(this.ctx.graph, peer, filtered),
        started: this.ctx.now(),
        bytes: 0,
        pages: 0,
        awareness: 0,
        conflicts: [],
        timer: undefined,
        resolve,
        reject,
      });
      this.#touch(syncId);
    });
  }

  #touch(syncId: string): void {
    const session = this.#sessions.get(syncId);
    if (session === undefined) return;
    if (session.timer !== undefined) clearTimeout(session.timer);
    session.timer = setTimeout(
      () =>
        this.#fail(
          syncId,
          agentError(
            "sync_failed",
            `sync ${syncId}: no answer from ${session.peer} within ${SYNC_STEP_TIMEOUT_MS} ms`,
          ),
        ),
      SYNC_STEP_TIMEOUT_MS,
    );
  }

  async #page(
    from: string,
    page: KnowledgeSyncResponsePayload,
    receipt: MessageReceipt,
    at: string,
  ): Promise<boolean> {
    const session = this.#sessions.get(page.syncId);
    if (session === undefined || session.peer !== from) return false;
    this.#touch(page.syncId);
    try {
      // Each item merges only when its signer may write it (authority.ts).
      const result = await session.receiver.acceptFrom(page, at, this.ctx.lookupKey);
      session.bytes += JSON.stringify(page).length;
      session.pages += 1;
      result.conflicts.forEach((c, i) => {
        session.conflicts.push({
          type: `knowledge.${result.conflictKinds[i] ?? "node"}`,
          itemId: c.local.id,
          localVersion: c.local,
          remoteVersion: c.remote,
        });
      });
      this.hooks.applied(result, from, receipt);
    } catch (error) {
      this.#fail(page.syncId, error);
      return true;
    }
    // The direct exchange ends with its last page; the generic one with ocp.sync.complete.
    if (page.isComplete && !this.#generic.has(page.syncId)) {
      this.#finish(page.syncId, session);
    }
    return true;
  }

  readonly #generic = new Set<string>();

  #finish(syncId: string, session: Session): void {
    if (session.timer !== undefined) clearTimeout(session.timer);
    this.#sessions.delete(syncId);
    this.#generic.delete(syncId);
    session.resolve({
      syncId,
      peer: session.peer,
      itemsSynced: session.receiver.itemsSynced,
      conflicts: session.receiver.conflicts,
      bytesTransferred: session.bytes,
      pages: session.pages,
      awarenessEntries: session.awareness,
      durationMs: this.ctx.now() - session.started,
    });
  }

  #fail(syncId: string, error: unknown): void {
    const session = this.#sessions.get(syncId);
    if (session === undefined) return;
    if (session.timer !== undefined) clearTimeout(session.timer);
    this.#sessions.delete(syncId);
    this.#generic.delete(syncId);
    session.reject(error);
  }
}
