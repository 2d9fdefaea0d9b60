/**
 * OpenTelemetry spans of host → provider calls, collected with the SDK's
 * in-memory exporter: one `ocp.host.query` span per leg against real child
 * and HTTP providers; over HTTP its `traceparent` header; over stdio the
 * ocp/1 wire byte for byte the same with tracing on as off.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHttpProviderServer, type HttpProviderServer } from "@ocp/transport-http";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { type ByteCounter, countBytesTo } from "./byte-counter.js";
import { fakeProvider, QUERY } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  cleanups.push(() => provider.shutdown());
  return { tracing: { tracerProvider: provider }, spans: () => exporter.getFinishedSpans() };
}

function newHost(options: ConstructorParameters<typeof Host>[0] = {}): Host {
  const host = new Host({ warn: () => undefined, legTimeoutMs: 2_000, ...options });
  cleanups.push(() => host.shutdown({ timeoutMs: 2_000 }));
  return host;
}

const stdio = (id: string, mode: string) => ({
  id,
  command: process.execPath,
  args: [join(FIXTURES, "provider.mjs"), mode, id],
});

describe("host → provider spans", () => {
  it("one ocp.host.query span per leg to real stdio children, its status the leg's outcome", async () => {
    const otel = memoryTracing();
    const host = newHost({ tracing: otel.tracing });
    await host.addStdio(stdio("docs", "honest"));
    await host.addStdio(stdio("broken", "crash"));
    const result = await host.queryAll(QUERY);
    expect(result.accepted).toHaveLength(2);
    const spans = otel.spans();
    expect(spans.map((s) => s.name)).toEqual(["ocp.host.query", "ocp.host.query"]);
    const docs = spans.find((s) => s.attributes["ocp.provider.id"] === "docs")!;
    expect(docs.kind).toBe(SpanKind.CLIENT);
    expect(docs.status.code).toBe(SpanStatusCode.UNSET);
    expect(docs.attributes).toMatchObject({ "ocp.leg.outcome": "ok", "ocp.leg.frames": 2 });
    const broken = spans.find((s) => s.attributes["ocp.provider.id"] === "broken")!;
    expect(broken.status).toEqual({ code: SpanStatusCode.ERROR, message: "crashed" });
    expect(broken.attributes["ocp.leg.reason"]).toBe("crashed");
  });

  it("records no span when tracing is not configured", async () => {
    const otel = memoryTracing();
    const host = newHost();
    await host.addStdio(stdio("docs", "honest"));
    await host.queryAll(QUERY);
    expect(otel.spans()).toEqual([]);
  });

  it("leaves the ocp/1 stdio wire byte for byte as it is without tracing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ocp-trace-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const wire = async (traced: boolean) => {
      const log = join(dir, `${traced}.log`);
      const otel = memoryTracing();
      const host = newHost(traced ? { tracing: otel.tracing } : {});
      await host.addStdio({
        id: "docs",
        command: process.execPath,
        args: [join(FIXTURES, "tee-provider.mjs"), log, "honest", "docs"],
      });
      await host.queryProvider("docs", QUERY);
      await host.shutdown({ timeoutMs: 2_000 });
      expect(otel.spans()).toHaveLength(traced ? 1 : 0);
      return readFile(log, "utf8");
    };
    const plain = await wire(false);
    const traced = await wire(true);
    expect(plain).toContain('"type":"query"');
    expect(traced).toBe(plain);
    expect(traced).not.toContain("traceparent");
  });
});

describe("host → HTTP provider", () => {
  async function remote(): Promise<{ counter: ByteCounter; url: string }> {
    const server: HttpProviderServer = createHttpProviderServer(
      fakeProvider({ id: "remote", name: "remote-search", egress: false }),
      { log: () => undefined },
    );
    const url = new URL(await server.listen({ host: "127.0.0.1", port: 0 }));
    const counter = await countBytesTo(Number(url.port));
    cleanups.push(
      () => server.close(),
      () => counter.close(),
    );
    return { counter, url: `http://127.0.0.1:${counter.port}/` };
  }

  it("sends the leg span's traceparent as a request header", async () => {
    const otel = memoryTracing();
    const { counter, url } = await remote();
    const host = newHost({ tracing: otel.tracing });
    await host.addHttp({ id: "remote", url });
    await host.grantConsent("remote", { grantedBy: "test" });
    const result = await host.queryAll(QUERY);
    expect(result.accepted).toHaveLength(2);
    const [span] = otel.spans();
    const { traceId, spanId } = span!.spanContext();
    expect(counter.received().toLowerCase()).toContain(`traceparent: 00-${traceId}-${spanId}-01`);
  });

  it("sends no traceparent header when tracing is not configured", async () => {
    const { counter, url } = await remote();
    const host = newHost();
    await host.addHttp({ id: "remote", url });
    await host.grantConsent("remote", { grantedBy: "test" });
    expect((await host.queryAll(QUERY)).accepted).toHaveLength(2);
    expect(counter.received()).toContain('"type":"query"');
    expect(counter.received().toLowerCase()).not.toContain("traceparent");
  });
});
