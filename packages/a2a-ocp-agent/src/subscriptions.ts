import type { KnowledgeNode, KnowledgeSubscribePayload } from "@ocp/a2a-ocp-messaging";
import { agentError } from "./errors.js";
import {
  DEFAULT_STREAM_BATCH,
  MAX_KNOWLEDGE_SUBSCRIPTIONS,
  MAX_PENDING_PER_SUBSCRIPTION,
} from "./limits.js";

/**
 * Knowledge subscriptions (§5.1.2, §5.1.3, §12.4), the publisher's side. A
 * subscription's stream id is its `subscriptionId`: `ocp.knowledge.control`
 * names it to pause, resume or cancel the stream.
 *
 * Filters: a node matches when every present filter holds — `domains`: one
 * of the node's domains ({@link nodeDomains}) is listed; `nodeTypes`: its `type` is listed; `tags`: it has at
 * least one listed tag; `minConfidence`: its confidence is at least that.
 * An empty list filters nothing.
 *
 * Delivery: `push` sends matching nodes at once, in chunks of `batchSize`
 * (default {@link DEFAULT_STREAM_BATCH}); `pull` buffers them and sends them
 * every `frequency` seconds. A paused stream buffers (up to
 * {@link MAX_PENDING_PER_SUBSCRIPTION}, oldest dropped first) and flushes on
 * resume; a cancelled one is removed.
 */

/**
 * The domains a node belongs to, the one definition every `domains` filter
 * reads (subscriptions, sync, collective queries). The specification's node
 * (§5.1.1) has no domain field, so a domain is any of: a tag; the first
 * dot-separated segment of its `type` (`backend.fix` is in `backend`);
 * `metadata.domain` (a string) or `metadata.domains` (strings).
 */
export function nodeDomains(node: KnowledgeNode): string[] {
  const out: string[] = [...node.tags];
  const dot = node.type.indexOf(".");
  out.push(dot === -1 ? node.type : node.type.slice(0, dot));
  const meta = node.metadata ?? {};
  if (typeof meta["domain"] === "string") out.push(meta["domain"]);
  if (Array.isArray(meta["domains"])) {
    for (const d of meta["domains"]) if (typeof d === "string") out.push(d);
  }
  return out;
}

/** Whether `node` passes a subscription's filters. */
export function matchesFilters(
  node: KnowledgeNode,
  filters: KnowledgeSubscribePayload["filters"],
): boolean {
  if (filters === undefined) return true;
  const listed = (list: string[] | undefined) => list !== undefined && list.length > 0;
  if (listed(filters.domains)) {
    const domains = nodeDomains(node);
    if (!filters.domains?.some((d) => domains.includes(d))) return false;
  }
  if (listed(filters.nodeTypes) && !filters.nodeTypes?.includes(node.type)) return false;
  if (listed(filters.tags) && !filters.tags?.some((t) => node.tags.includes(t))) return false;
  if (filters.minConfidence !== undefined && node.confidence < filters.minConfidence) return false;
  return true;
}

/** One subscriber's subscription as the publisher holds it. */
export interface KnowledgeSubscription {
  readonly subscriber: string;
  readonly request: KnowledgeSubscribePayload;
  paused: boolean;
  pending: KnowledgeNode[];
  sequence: number;
}

/** A chunk to send: `nodes` go to `subscriber` on stream `streamId` with this sequence number. */
export interface Delivery {
  readonly subscriber: string;
  readonly streamId: string;
  readonly sequenceNumber: number;
  readonly nodes: KnowledgeNode[];
}

/** The publisher's table of knowledge subscriptions. Pure: the agent sends what it returns. */
export class SubscriptionTable {
  readonly #subs = new Map<string, KnowledgeSubscription>();

  /** `maySee(node, subscriber)`: §8.5, a node a subscriber may not see is never queued for it. */
  constructor(
    private readonly maySee: (node: KnowledgeNode, subscriber: string) => boolean = () => true,
  ) {}

  /** Adds or replaces a subscription; an id held by another subscriber is refused (false). */
  add(subscriber: string, request: KnowledgeSubscribePayload): boolean {
    const existing = this.#subs.get(request.subscriptionId);
    if (existing !== undefined && existing.subscriber !== subscriber) return false;
    if (!this.#subs.has(request.subscriptionId) && this.#subs.size >= MAX_KNOWLEDGE_SUBSCRIPTIONS) {
      throw agentError(
        "limit_exceeded",
        `more than ${MAX_KNOWLEDGE_SUBSCRIPTIONS} knowledge subscriptions`,
      );
    }
    this.#subs.set(request.subscriptionId, {
      subscriber,
      request,
      paused: false,
      pending: [],
      sequence: 0,
    });
    return true;
  }

  /** Removes a subscription; only its subscriber may. */
  remove(subscriber: string, subscriptionId: string): boolean {
    const sub = this.#subs.get(subscriptionId);
    if (sub === undefined || sub.subscriber !== subscriber) return false;
    return this.#subs.delete(subscriptionId);
  }

  get(subscriptionId: string): KnowledgeSubscription | undefined {
    return this.#subs.get(subscriptionId);
  }

  list(): KnowledgeSubscription[] {
    return [...this.#subs.values()];
  }

  /** The subscribers whose filters `node` matches. */
  matching(node: KnowledgeNode): KnowledgeSubscription[] {
    return this.list().filter(
      (s) => matchesFilters(node, s.request.filters) && this.maySee(node, s.subscriber),
    );
  }

  /**
   * Offers nodes to every subscription: push subscriptions that are not
   * paused yield deliveries now; the others buffer.
   */
  offer(nodes: readonly KnowledgeNode[]): Delivery[] {
    const out: Delivery[] = [];
    for (const sub of this.#subs.values()) {
      const matched = nodes.filter(
        (n) => matchesFilters(n, sub.request.filters) && this.maySee(n, sub.subscriber),
      );
      if (matched.length === 0) continue;
      sub.pending.push(...matched);
      if (sub.pending.length > MAX_PENDING_PER_SUBSCRIPTION) {
        sub.pending.splice(0, sub.pending.length - MAX_PENDING_PER_SUBSCRIPTION);
      }
      if (sub.request.deliveryMode === "push" && !sub.paused) out.push(...this.#drain(sub));
    }
    return out;
  }

  /** Deliveries of everything a subscription buffered (pull timer, resume). */
  flush(subscriptionId: string): Delivery[] {
    const sub = this.#subs.get(subscriptionId);
    if (sub === undefined || sub.paused) return [];
    return this.#drain(sub);
  }

  /** §12.4 applies a control action from `subscriber`; returns deliveries due on resume. */
  control(subscriber: string, streamId: string, action: "pause" | "resume" | "cancel"): Delivery[] {
    const sub = this.#subs.get(streamId);
    if (sub === undefined || sub.subscriber !== subscriber) return [];
    if (action === "cancel") {
      this.#subs.delete(streamId);
      return [];
    }
    sub.paused = action === "pause";
    return action === "resume" ? this.#drain(sub) : [];
  }

  #drain(sub: KnowledgeSubscription): Delivery[] {
    const size = sub.request.batchSize ?? DEFAULT_STREAM_BATCH;
    const out: Delivery[] = [];
    while (sub.pending.length > 0) {
      sub.sequence += 1;
      out.push({
        subscriber: sub.subscriber,
        streamId: sub.request.subscriptionId,
        sequenceNumber: sub.sequence,
        nodes: sub.pending.splice(0, size),
      });
    }
    return out;
  }
}
