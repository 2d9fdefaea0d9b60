/**
 * OpenTelemetry spans of an agent's side of a message's path (docs/tracing.md):
 * `a2a-ocp.send` (producer) from `send` until the hub's ack or refusal, and
 * `a2a-ocp.receive` (consumer) for a durable delivery whose frame carried the
 * hub's trace context. Off unless configured: then the client neither asks
 * the hub for trace contexts (`ocpTrace` in the announcement) nor sends any.
 * Once the hub confirms (`ocpTrace: true` in `ocp.connection.registered`),
 * a message goes out in an `ocp.hub.send` frame whose `traceparent` is the
 * send span's; the signed message inside is unchanged.
 */

import {
  encodeTracedSend,
  formatTraceparent,
  type TraceParent,
} from "@ocp/a2a-ocp-messaging/internal";
import { resolveTracer } from "@ocp/types/internal";
import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";

/** `true`: the globally registered tracer provider; or the provider to use. Off when absent. */
export type ClientTracing = boolean | { tracerProvider: TracerProvider };

export class ClientTracer {
  /** Defined only when tracing is configured. */
  readonly tracer: Tracer | undefined;
  /** The hub confirmed trace contexts on this connection. */
  confirmed = false;

  constructor(tracing: ClientTracing | undefined) {
    this.tracer = resolveTracer(tracing, () => trace.getTracerProvider(), "@ocp/a2a-ocp-client");
  }

  /** Whether to ask the hub for trace contexts. */
  get asks(): boolean {
    return this.tracer !== undefined;
  }

  /**
   * Sends `raw` through `send` as the frame to write: traced (in an
   * `ocp.hub.send` frame) once the hub confirmed, else the message text
   * itself. The send span, a child of the active context, ends with the
   * returned promise.
   */
  send<T>(
    message: Record<string, unknown>,
    raw: string,
    send: (frame: string) => Promise<T>,
  ): Promise<T> {
    if (this.tracer === undefined) return send(raw);
    const span = this.tracer.startSpan(
      "a2a-ocp.send",
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          "messaging.system": "a2a+ocp",
          "messaging.message.id": String(message["id"]),
          "ocp.message.type": String(message["type"]),
        },
      },
      context.active(),
    );
    const frame = this.confirmed
      ? encodeTracedSend(formatTraceparent(span.spanContext()), raw)
      : raw;
    const sent = send(frame);
    sent.then(
      () => span.end(),
      (error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code;
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(code ?? error) });
        span.end();
      },
    );
    return sent;
  }

  /** A durable delivery arrived with the hub's trace context: its receive span. */
  received(parent: TraceParent | undefined, seq: number): void {
    if (this.tracer === undefined || parent === undefined) return;
    const remote = trace.setSpanContext(ROOT_CONTEXT, { ...parent, isRemote: true });
    const attributes = { "messaging.system": "a2a+ocp", "ocp.delivery.seq": seq };
    this.tracer.startSpan("a2a-ocp.receive", { kind: SpanKind.CONSUMER, attributes }, remote).end();
  }
}
