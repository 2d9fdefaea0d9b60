/**
 * How every package that traces (the host, the hub, the hub client) turns its
 * `tracing` option into a tracer (docs/tracing.md): `true` is the globally
 * registered OpenTelemetry tracer provider, an object names the provider to
 * use, absent or `false` is off. Written against the shape of a provider
 * only, so this package needs nothing of OpenTelemetry: each caller passes
 * `trace.getTracerProvider` of `@opentelemetry/api`, which it depends on.
 */

/** A package's `tracing` option: `true`, `false`, or `{ tracerProvider }`. */
export type TracingOption<Provider> = boolean | { tracerProvider: Provider };

/**
 * The tracer named `name`, or `undefined` when tracing is off. `global` is
 * called only for `tracing: true`.
 */
export function resolveTracer<Tracer, Provider extends { getTracer(name: string): Tracer }>(
  tracing: TracingOption<Provider> | undefined,
  global: () => Provider,
  name: string,
): Tracer | undefined {
  const provider =
    tracing === true ? global() : typeof tracing === "object" ? tracing.tracerProvider : undefined;
  return provider?.getTracer(name);
}
