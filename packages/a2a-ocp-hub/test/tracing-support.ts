/** An OpenTelemetry SDK tracer provider whose finished spans stay in memory, for the tracing tests. */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    tracing: { tracerProvider: provider },
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    close: () => provider.shutdown(),
  };
}

/** The one finished span named `name` whose attributes include `attributes`. */
export function only(
  spans: readonly ReadableSpan[],
  name: string,
  attributes: Record<string, unknown> = {},
): ReadableSpan {
  const found = spans.filter(
    (s) => s.name === name && Object.entries(attributes).every(([k, v]) => s.attributes[k] === v),
  );
  if (found.length !== 1) {
    throw new Error(`${found.length} spans named ${name}: ${spans.map((s) => s.name).join(", ")}`);
  }
  return found[0]!;
}

/** Whether `child`'s parent is `parent` (same trace, parent span id). */
export function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  const p = child.parentSpanContext;
  return (
    p?.traceId === parent.spanContext().traceId &&
    p.spanId === parent.spanContext().spanId &&
    child.spanContext().traceId === parent.spanContext().traceId
  );
}
