/**
 * OpenTelemetry spans of a host's provider calls (docs/tracing.md): one
 * `ocp.host.query` span (client) per leg, a child of the active context,
 * ended with the leg's outcome. Off unless configured. Over HTTP the span's
 * W3C `traceparent` goes out as a request header; over stdio nothing is
 * added: the ocp/1 wire stays byte for byte what it is without tracing.
 */

import { resolveTracer } from "@ocp/types/internal";
import {
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type { LegOutcome } from "./fanout.js";

/** `true`: the globally registered tracer provider; or the provider to use. Off when absent. */
export type HostTracing = boolean | { tracerProvider: TracerProvider };

/** The host's tracer; `undefined` when tracing is off. */
export function hostTracer(tracing: HostTracing | undefined): Tracer | undefined {
  return resolveTracer(tracing, () => trace.getTracerProvider(), "@ocp/host");
}

/** One leg's span and the `traceparent` its transport may send. */
export interface LegSpan {
  readonly traceparent: string;
  end(outcome: LegOutcome): void;
}

/** Starts the span of a query to `providerId`. */
export function startLegSpan(tracer: Tracer, providerId: string): LegSpan {
  const span: Span = tracer.startSpan(
    "ocp.host.query",
    { kind: SpanKind.CLIENT, attributes: { "ocp.provider.id": providerId } },
    context.active(),
  );
  const { traceId, spanId, traceFlags } = span.spanContext();
  const flags = (traceFlags & 0xff).toString(16).padStart(2, "0");
  return {
    traceparent: `00-${traceId}-${spanId}-${flags}`,
    end: (outcome) => {
      span.setAttribute("ocp.leg.outcome", outcome.kind);
      if (outcome.kind === "failed") {
        span.setAttribute("ocp.leg.reason", outcome.failure.reason);
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.failure.reason });
      } else if (outcome.kind === "dropped") {
        span.setStatus({ code: SpanStatusCode.ERROR, message: "dropped" });
      } else {
        span.setAttribute("ocp.leg.frames", outcome.result.frames.length);
      }
      span.end();
    },
  };
}
