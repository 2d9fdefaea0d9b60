import type { EventPublishPayload } from "@ocp/a2a-ocp-messaging";
import { BROADCAST } from "@ocp/a2a-ocp-messaging";
import type { AgentContext } from "./context.js";
import { agentError } from "./errors.js";
import { matchingSubscriptions } from "./events.js";
import { MAX_EVENT_SUBSCRIPTIONS } from "./limits.js";

interface EventSub {
  readonly eventTypes: string[];
  readonly filters?: Record<string, unknown>;
  readonly handler?: (event: EventPublishPayload) => void;
}

/** The event system (§5.5), agent side: publish, subscribe, and hand matching events to handlers. */
export class EventService {
  readonly #subs = new Map<string, EventSub>();

  constructor(
    private readonly ctx: AgentContext,
    private readonly emit: (event: EventPublishPayload, subscriptionId: string) => void,
  ) {}

  async publish(
    eventType: string,
    eventData: unknown,
    severity: EventPublishPayload["severity"] | undefined,
    source: string | undefined,
  ): Promise<EventPublishPayload> {
    const event: EventPublishPayload = {
      eventId: `evt-${globalThis.crypto.randomUUID()}`,
      eventType,
      eventData,
      timestamp: new Date(this.ctx.now()).toISOString(),
      source: source ?? this.ctx.id,
      ...(severity === undefined ? {} : { severity }),
    };
    await this.ctx.send("ocp.event.publish", BROADCAST, event);
    return event;
  }

  async subscribe(
    eventTypes: string[],
    filters?: Record<string, unknown>,
    handler?: (event: EventPublishPayload) => void,
  ): Promise<string> {
    if (this.#subs.size >= MAX_EVENT_SUBSCRIPTIONS)
      throw agentError("limit_exceeded", "too many event subscriptions");
    const subscriptionId = `esub-${globalThis.crypto.randomUUID()}`;
    this.#subs.set(subscriptionId, {
      eventTypes,
      ...(filters === undefined ? {} : { filters }),
      ...(handler === undefined ? {} : { handler }),
    });
    await this.ctx.send("ocp.event.subscribe", BROADCAST, {
      subscriptionId,
      eventTypes,
      ...(filters === undefined ? {} : { filters }),
    });
    return subscriptionId;
  }

  async unsubscribe(subscriptionId: string): Promise<void> {
    this.#subs.delete(subscriptionId);
    await this.ctx.send("ocp.event.unsubscribe", BROADCAST, { subscriptionId });
  }

  /** An event received (published, or notified for subscription `only`). */
  received(event: EventPublishPayload, only?: string): void {
    for (const [id, sub] of matchingSubscriptions(this.#subs, event, only)) {
      sub.handler?.(event);
      this.emit(event, id);
    }
  }
}
