/**
 * What the hub measures of each message's path: per-hop latency histograms
 * (always kept, read by metrics.ts) and, when tracing is configured,
 * OpenTelemetry spans (docs/tracing.md):
 *
 * - `ocp.hub.accept` (server): arrival to ack or refusal, a child of the
 *   sender's span when its `ocp.hub.send` frame carried a `traceparent`;
 *   under it `ocp.hub.verify` (arrival until every check passed) and
 *   `ocp.hub.commit` (durable: queued until committed; clustered, this is
 *   the JetStream publish, and its context rides the NATS headers).
 * - `ocp.hub.receive` (consumer): a clustered hub took a delivery from NATS.
 * - `ocp.hub.deliver` (producer): the delivery until written to the
 *   recipient's connection; its `traceparent` goes in the `ocp.hub.deliver`
 *   frame of a recipient that announced `ocpTrace`.
 *
 * Hops: `verify` (arrival → checks passed), `commit` (queued → committed),
 * `cluster` (NATS publish → this hub's receipt, across hosts' clocks) and
 * `deliver` (accepted — durable: committed — or taken from NATS → written to
 * the recipient's connection; live deliveries, not replays from the store).
 */
import type { WireMessage } from "@ocp/a2a-ocp-messaging";
import {
  formatTraceparent,
  parseTracedSend,
  parseTraceparent,
  type TraceParent,
} from "@ocp/a2a-ocp-messaging/internal";
import { resolveTracer } from "@ocp/types/internal";
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { Histogram } from "./histogram.js";
import { HUB_METRICS_HOP_BUCKETS_SECONDS, HUB_TRACE_MAX_OPEN_SPANS } from "./limits.js";

/** `true`: the globally registered tracer provider; or the provider to use. Off when absent. */
export type HubTracing = boolean | { tracerProvider: TracerProvider };

/** The hops of the latency histogram, in path order. */
export const HUB_HOPS = ["verify", "commit", "cluster", "deliver"] as const;
export type HubHop = (typeof HUB_HOPS)[number];

/** What a delivery carries for the hop histograms and the trace (bus.ts). */
export interface DeliveryTrace {
  /** `performance.now()` when this hub accepted the message, or took it from NATS. */
  at: number;
  /** The span its delivery span descends from (W3C `traceparent`), tracing on. */
  traceparent?: string | undefined;
  /** Clustered: when the publishing hub handed it to NATS, ms since the epoch. */
  publishedAt?: number | undefined;
}

/** A frame's arrival: when, and the sender's span (from an `ocp.hub.send` frame). */
export interface Arrival {
  at: number;
  remote: TraceParent | undefined;
}

/** What a session does with one delivery it writes (see {@link HubTelemetry.session}). */
export interface DeliveryHop {
  /** The `traceparent` to put in the delivery frame (the recipient asked for trace contexts). */
  traceparent: string | undefined;
  /** Call once the frame was written to the connection. */
  written(): void;
}

/** What a session needs of the telemetry. */
export interface SessionTelemetry {
  delivering(trace: DeliveryTrace | undefined): DeliveryHop | undefined;
}

const owners = new WeakMap<object, HubTelemetry>();

/** The telemetry of a hub (metrics.ts reads its histograms). */
export function telemetryOf(hub: object): HubTelemetry | undefined {
  return owners.get(hub);
}

const epochMs = (at: number) => performance.timeOrigin + at;
const seconds = (from: number, to: number) => Math.max(0, to - from) / 1000;

function remoteContext(parent: TraceParent | undefined): Context {
  return parent === undefined
    ? ROOT_CONTEXT
    : trace.setSpanContext(ROOT_CONTEXT, { ...parent, isRemote: true });
}

export class HubTelemetry {
  readonly hops = Object.fromEntries(
    HUB_HOPS.map((hop) => [hop, new Histogram(HUB_METRICS_HOP_BUCKETS_SECONDS)]),
  ) as Record<HubHop, Histogram>;
  /** Defined only when tracing is configured. */
  readonly tracer: Tracer | undefined;
  /** Accept spans open now, by message id, oldest first. */
  readonly #open = new Map<string, { span: Span; context: Context }>();

  constructor(owner: object, tracing: HubTracing | undefined) {
    this.tracer = resolveTracer(tracing, () => trace.getTracerProvider(), "@ocp/a2a-ocp-hub");
    owners.set(owner, this);
  }

  /**
   * A frame arrived: the message text (unwrapped from `ocp.hub.send`) and its
   * arrival; `undefined` when an `ocp.hub.send` frame cannot be read, after
   * `refuse` was called with `hub_frame_invalid` and why. A `traceparent`
   * that is not well formed is ignored.
   */
  arrive(
    frame: string,
    refuse: (code: "hub_frame_invalid", message: string) => void,
  ): { raw: string; arrival: Arrival } | undefined {
    const at = performance.now();
    const traced = parseTracedSend(frame);
    if (traced === undefined) return { raw: frame, arrival: { at, remote: undefined } };
    if ("invalid" in traced) {
      refuse("hub_frame_invalid", `ocp.hub.send: ${traced.invalid}`);
      return undefined;
    }
    // A context is followed only when this hub traces: otherwise nothing is propagated.
    const remote = this.tracer === undefined ? undefined : traced.traceparent;
    return { raw: traced.raw, arrival: { at, remote } };
  }

  /** The registration payload: `ocpTrace: true` confirms trace contexts to an agent that asked. */
  registration(payload: Record<string, unknown>, asked: boolean): Record<string, unknown> {
    return asked && this.tracer !== undefined ? { ...payload, ocpTrace: true } : payload;
  }

  /** `wire` passed every check: the verify hop, and (tracing on) its accept span opens. */
  verified(arrival: Arrival, wire: WireMessage): void {
    const now = performance.now();
    this.hops.verify.observe(seconds(arrival.at, now));
    if (this.tracer === undefined) return;
    const parent = remoteContext(arrival.remote);
    const span = this.tracer.startSpan(
      "ocp.hub.accept",
      {
        kind: SpanKind.SERVER,
        startTime: epochMs(arrival.at),
        attributes: {
          "messaging.system": "a2a+ocp",
          "messaging.message.id": wire.id,
          "ocp.message.type": wire.type,
          "ocp.message.from": wire.from,
        },
      },
      parent,
    );
    const context = trace.setSpan(parent, span);
    this.tracer.startSpan("ocp.hub.verify", { startTime: epochMs(arrival.at) }, context).end();
    this.settle(wire.id, "superseded"); // The same id again: the earlier span is over.
    this.#open.set(wire.id, { span, context });
    if (this.#open.size > HUB_TRACE_MAX_OPEN_SPANS) {
      const [oldest] = this.#open.keys();
      this.settle(oldest, "abandoned");
    }
  }

  /** Message `id` was acknowledged (no code) or refused (its code): its accept span ends. */
  settle(id: string | undefined, code?: string): void {
    if (id === undefined) return;
    const open = this.#open.get(id);
    if (open === undefined) return;
    this.#open.delete(id);
    if (code !== undefined) {
      open.span.setAttribute("ocp.refusal.code", code);
      open.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    }
    open.span.end();
  }

  /**
   * A durable message `id` is queued for commit: the `traceparent` the store
   * carries with it (clustered: in the NATS headers), what its deliveries
   * carry, and `done` to call with the outcome (the commit hop, its span).
   */
  committing(id: string): {
    traceparent: string | undefined;
    trace: DeliveryTrace;
    done(committed: boolean): void;
  } {
    const start = performance.now();
    const parent = this.#open.get(id)?.context;
    const span =
      parent === undefined ? undefined : this.tracer?.startSpan("ocp.hub.commit", {}, parent);
    const traceparent = span === undefined ? undefined : formatTraceparent(span.spanContext());
    const delivery: DeliveryTrace = { at: start, traceparent };
    return {
      traceparent,
      trace: delivery,
      done: (committed) => {
        const now = performance.now();
        delivery.at = now;
        if (committed) this.hops.commit.observe(seconds(start, now));
        else span?.setStatus({ code: SpanStatusCode.ERROR, message: "not committed" });
        span?.end();
      },
    };
  }

  /** A transient message `id` was accepted: what its deliveries carry. */
  forwarding(id: string): DeliveryTrace {
    const open = this.#open.get(id);
    const traceparent = open === undefined ? undefined : formatTraceparent(open.span.spanContext());
    return { at: performance.now(), traceparent };
  }

  /** The part a session uses; `traceContexts`: its agent announced `ocpTrace` (and tracing is on). */
  session(traceContexts: boolean): SessionTelemetry {
    const inFrames = traceContexts && this.tracer !== undefined;
    return { delivering: (delivery) => this.#delivering(delivery, inFrames) };
  }

  #delivering(delivery: DeliveryTrace | undefined, inFrames: boolean): DeliveryHop | undefined {
    if (delivery === undefined) return undefined;
    let parent = remoteContext(
      delivery.traceparent === undefined ? undefined : parseTraceparent(delivery.traceparent),
    );
    if (delivery.publishedAt !== undefined) {
      this.hops.cluster.observe(seconds(delivery.publishedAt, epochMs(delivery.at)));
      if (this.tracer !== undefined && delivery.traceparent !== undefined) {
        const received = this.tracer.startSpan(
          "ocp.hub.receive",
          { kind: SpanKind.CONSUMER, startTime: epochMs(delivery.at) },
          parent,
        );
        received.end();
        parent = trace.setSpan(parent, received);
      }
    }
    const span =
      this.tracer === undefined || delivery.traceparent === undefined
        ? undefined
        : this.tracer.startSpan("ocp.hub.deliver", { kind: SpanKind.PRODUCER }, parent);
    return {
      traceparent:
        inFrames && span !== undefined ? formatTraceparent(span.spanContext()) : undefined,
      written: () => {
        this.hops.deliver.observe(seconds(delivery.at, performance.now()));
        span?.end();
      },
    };
  }
}
