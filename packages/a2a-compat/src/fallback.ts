/**
 * §9.1 fallback to A2A. Sending to an agent first resolves its agent card
 * (fetched with a timeout, cached for a while); when the card declares
 * `a2a+ocp` the message is signed and goes over the OCP connection (after the
 * §7.2 check of its feature), otherwise it becomes the equivalent §9.2 A2A
 * task, sent with the SDK's client, and the A2A reply is returned. Every
 * decision is reported to `onRoute`, and the result says which path it took.
 */

import { AGENT_CARD_PATH, AgentCard, type Message, type Task, TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { MESSAGE_LIFETIMES, messageTtl } from "@ocp/a2a-ocp-agent/internal";
import type { AgentIdentity, KnownMessageType } from "@ocp/a2a-ocp-messaging";
import { type PayloadInit, signedMessage } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { parseJsonText } from "@ocp/types/internal";
import {
  AgentCardSchema,
  declaredFeatures,
  OCP_EXTENSION_URI,
  type OcpDeclaration,
  ocpDeclarationOf,
  type ParsedAgentCard,
  protocolsOf,
} from "./card.js";
import { a2aError } from "./errors.js";
import {
  A2A_TASK_TIMEOUT_MS,
  CARD_CACHE_MAX_ENTRIES,
  CARD_CACHE_TTL_MS,
  CARD_FETCH_TIMEOUT_MS,
  MAX_CARD_BYTES,
} from "./limits.js";
import { type FeatureNegotiator, FeatureNotConfirmed, featureOf } from "./negotiation.js";
import {
  A2A_TASKS,
  type A2ATaskName,
  isTask,
  replyText,
  replyValues,
  TASK_OUTPUT_SCHEMAS,
  type TaskMessageType,
  type TaskOutput,
  taskRequestMessage,
} from "./tasks.js";

/** A card as resolved: parsed, with its OCP declaration when it has one. */
export interface ResolvedCard {
  agentId: string;
  /** Where it was fetched. */
  url: string;
  card: ParsedAgentCard;
  /** The card as received (unknown fields included). */
  raw: Record<string, unknown>;
  protocols: string[];
  ocp: OcpDeclaration | undefined;
}

export interface CardResolverOptions {
  /** Cards known without HTTP (e.g. `AgentDirectory.cardOf` at the hub); tried first. */
  lookup?: (agentId: string) => Promise<Record<string, unknown> | undefined>;
  /** Where `agentId`'s card is: a base URL (the well-known path is appended) or the card's URL (ending in `.json`). */
  locate?: (agentId: string) => string | undefined | Promise<string | undefined>;
  timeoutMs?: number;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/** Resolves agent cards over HTTP with a timeout, a bounded cache and one fetch per agent at a time. */
export class CardResolver {
  readonly #options: CardResolverOptions;
  readonly #cache = new Map<string, { card: ResolvedCard; expires: number }>();
  readonly #inflight = new Map<string, Promise<ResolvedCard>>();

  constructor(options: CardResolverOptions) {
    this.#options = options;
  }

  /** The card of `agentId`: from the cache while fresh, else fetched; `card_unavailable` otherwise. */
  resolve(agentId: string): Promise<ResolvedCard> {
    const now = (this.#options.now ?? Date.now)();
    const cached = this.#cache.get(agentId);
    if (cached !== undefined && cached.expires > now) return Promise.resolve(cached.card);
    const running = this.#inflight.get(agentId);
    if (running !== undefined) return running;
    const attempt = this.#fetch(agentId).finally(() => this.#inflight.delete(agentId));
    this.#inflight.set(agentId, attempt);
    return attempt;
  }

  /** Drops a cached card (e.g. after its agent failed to answer). */
  invalidate(agentId: string): void {
    this.#cache.delete(agentId);
  }

  async #fetch(agentId: string): Promise<ResolvedCard> {
    const known = await this.#options.lookup?.(agentId);
    if (known !== undefined) return this.#accept(agentId, `lookup:${agentId}`, known);
    const location = await this.#options.locate?.(agentId);
    if (location === undefined)
      throw a2aError("card_unavailable", `no card location is known for ${agentId}`, {
        details: { agentId },
      });
    const url = location.endsWith(".json")
      ? location
      : `${location.replace(/\/+$/, "")}/${AGENT_CARD_PATH}`;
    const timeoutMs = this.#options.timeoutMs ?? CARD_FETCH_TIMEOUT_MS;
    let text: string;
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: "application/json", "A2A-Version": "1.0" },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const length = Number(response.headers.get("content-length") ?? "0");
      if (length > MAX_CARD_BYTES)
        throw new Error(`card of ${length} bytes exceeds ${MAX_CARD_BYTES}`);
      text = await response.text();
      if (Buffer.byteLength(text, "utf8") > MAX_CARD_BYTES)
        throw new Error(`card exceeds ${MAX_CARD_BYTES} bytes`);
    } catch (error) {
      throw a2aError(
        "card_unavailable",
        `the card of ${agentId} could not be fetched from ${url}: ${error instanceof Error ? error.message : String(error)}`,
        { details: { agentId, url }, cause: error },
      );
    }
    const json = parseJsonText(text);
    if (!json.ok) {
      throw a2aError(
        "card_unavailable",
        `the card at ${url} is not I-JSON: ${json.error.message}`,
        { details: { agentId, url }, cause: json.error },
      );
    }
    return this.#accept(agentId, url, json.value);
  }

  #accept(agentId: string, url: string, raw: unknown): ResolvedCard {
    const parsed = AgentCardSchema.safeParse(raw);
    // A card the schema accepts is a JSON object; the guard says so to the type checker.
    if (!parsed.success || !isJsonObject(raw))
      throw a2aError(
        "card_unavailable",
        `the card at ${url} is not an agent card: ${parsed.error?.issues[0]?.message ?? "invalid"}`,
        { details: { agentId, url } },
      );
    if (parsed.data.id !== undefined && parsed.data.id !== agentId) {
      throw a2aError(
        "card_unavailable",
        `the card at ${url} belongs to ${parsed.data.id}, not ${agentId}`,
        { details: { agentId, url } },
      );
    }
    const card: ResolvedCard = {
      agentId,
      url,
      card: parsed.data,
      raw,
      protocols: protocolsOf(parsed.data),
      ocp: ocpDeclarationOf(parsed.data),
    };
    this.#cache.delete(agentId);
    if (this.#cache.size >= (this.#options.maxEntries ?? CARD_CACHE_MAX_ENTRIES)) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(agentId, {
      card,
      expires: (this.#options.now ?? Date.now)() + (this.#options.ttlMs ?? CARD_CACHE_TTL_MS),
    });
    return card;
  }
}

/** Which path a message took, as reported to `onRoute`. */
export type RouteInfo =
  | { path: "ocp"; to: string; type: string; messageId: string }
  | {
      path: "a2a";
      to: string;
      type: string;
      task: A2ATaskName;
      taskId: string | undefined;
      state: string;
    };

/** What {@link A2AFallback.send} resolves with. */
export type FallbackResult =
  | { path: "ocp"; message: Record<string, unknown>; receipt: unknown }
  | { path: "a2a"; task: A2ATaskName; reply: TaskOutput<A2ATaskName>; result: Message | Task };

export interface A2AFallbackOptions {
  identity: AgentIdentity;
  resolver: CardResolver;
  /** The OCP connection: an `AgentLink`, or `(m) => hubClient.send(m)` wrapped as `{ send }`. */
  ocp: { send(message: Record<string, unknown>): Promise<unknown> };
  /** §7.2 state; without it the features the card declares are the check. */
  negotiator?: FeatureNegotiator;
  onRoute?: (route: RouteInfo) => void;
  /** The SDK client factory; `new ClientFactory()` (JSON-RPC and REST) by default. */
  clientFactory?: ClientFactory;
  taskTimeoutMs?: number;
  /** The clock the messages' `ttl` is computed against (ms); `Date.now` by default. */
  now?: () => number;
}

/**
 * The deadline a message's own payload sets (a proposal's voting period, a
 * query's timeout); for a type that lives until a deadline its payload does
 * not carry, a clear `invalid_option` error.
 */
function deadlineIn(type: KnownMessageType, payload: unknown, now: number): number | undefined {
  if (!("untilDeadline" in MESSAGE_LIFETIMES[type])) return undefined;
  const p = payload as { votingPeriod?: unknown; timeout?: unknown };
  if (type === "ocp.consensus.propose" && typeof p.votingPeriod === "number")
    return now + p.votingPeriod * 1000;
  if (type === "ocp.collective.query" && typeof p.timeout === "number") return now + p.timeout;
  throw a2aError(
    "invalid_option",
    `${type} lives until the deadline of the proposal or query it answers: pass options.deadline`,
    { details: { type } },
  );
}

/** Sends OCP messages to one agent, over OCP when its card says so, else as A2A tasks. */
export class A2AFallback {
  readonly #options: A2AFallbackOptions;
  readonly #factory: ClientFactory;

  constructor(options: A2AFallbackOptions) {
    this.#options = options;
    this.#factory = options.clientFactory ?? new ClientFactory();
  }

  /**
   * Sends a message of `type` to `to` (one agent) by the path its card allows.
   * Over OCP the message carries the `ttl` its type's lifetime gives (as the
   * agent runtime's, `messageTtl`): a proposal lives until its voting period
   * ends, a collective query until its timeout; a vote or a collective
   * response needs `options.deadline` (ms since the epoch: the proposal's or
   * the query's), else it is refused with `invalid_option` before anything is sent.
   */
  async send<T extends KnownMessageType>(
    to: string,
    type: T,
    payload: PayloadInit<T>,
    options: { deadline?: number } = {},
  ): Promise<FallbackResult> {
    const resolved = await this.#options.resolver.resolve(to);
    if (resolved.ocp !== undefined) return this.#sendOcp(resolved, type, payload, options.deadline);
    if (!(type in A2A_TASKS))
      throw a2aError(
        "no_a2a_equivalent",
        `${to} does not speak a2a+ocp and ${type} has no A2A task equivalent`,
        { details: { to, type } },
      );
    return this.#sendA2A(resolved, type as TaskMessageType, payload);
  }

  async #sendOcp<T extends KnownMessageType>(
    resolved: ResolvedCard,
    type: T,
    payload: PayloadInit<T>,
    deadline: number | undefined,
  ): Promise<FallbackResult> {
    const to = resolved.agentId;
    const now = (this.#options.now ?? Date.now)();
    const ttl = messageTtl(type, now, deadline ?? deadlineIn(type, payload, now));
    if (this.#options.negotiator !== undefined) {
      await this.#options.negotiator.assertAllowed(to, type);
    } else {
      const feature = featureOf(type);
      const offered = declaredFeatures(resolved.ocp as OcpDeclaration);
      if (feature !== undefined && !offered.includes(feature))
        throw new FeatureNotConfirmed(to, feature, type, offered);
    }
    const signed = signedMessage(
      this.#options.identity,
      { type, to, payload, ttl },
      { backend: nativeEd25519 },
    );
    const receipt = await this.#options.ocp.send(signed);
    this.#options.onRoute?.({ path: "ocp", to, type, messageId: signed.id });
    return { path: "ocp", message: signed, receipt };
  }

  async #sendA2A(
    resolved: ResolvedCard,
    type: TaskMessageType,
    payload: unknown,
  ): Promise<FallbackResult> {
    const to = resolved.agentId;
    const task = A2A_TASKS[type];
    const message = taskRequestMessage(type, payload, {
      from: this.#options.identity.id,
      extensionUri: OCP_EXTENSION_URI,
    });
    let result: Message | Task;
    try {
      const client = await this.#factory.createFromAgentCard(AgentCard.fromJSON(resolved.raw));
      result = await client.sendMessage(
        { tenant: "", message, configuration: undefined, metadata: undefined },
        { signal: AbortSignal.timeout(this.#options.taskTimeoutMs ?? A2A_TASK_TIMEOUT_MS) },
      );
    } catch (error) {
      this.#options.resolver.invalidate(to);
      throw a2aError(
        "a2a_task_failed",
        `${task} to ${to} failed: ${error instanceof Error ? error.message : String(error)}`,
        { details: { to, task }, cause: error },
      );
    }
    const state = isTask(result)
      ? (result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)
      : TaskState.TASK_STATE_COMPLETED;
    this.#options.onRoute?.({
      path: "a2a",
      to,
      type,
      task,
      taskId: isTask(result) ? result.id : undefined,
      state: TaskState[state] ?? String(state),
    });
    if (state !== TaskState.TASK_STATE_COMPLETED) {
      throw a2aError(
        "a2a_task_failed",
        `${task} to ${to} ended ${TaskState[state]}: ${replyText(result)}`,
        { details: { to, task, state: TaskState[state] } },
      );
    }
    for (const value of replyValues(result)) {
      const output = TASK_OUTPUT_SCHEMAS[task].safeParse(value);
      if (output.success) return { path: "a2a", task, reply: output.data, result };
    }
    throw a2aError("invalid_reply", `the reply of ${to} to ${task} carries no valid output`, {
      details: {
        to,
        task,
      },
    });
  }
}
