/**
 * The hub's counters in the Prometheus text exposition format (version
 * 0.0.4): what `hub.stats()` counts, refusals by code, registrations, the
 * store's health, a histogram of how long messages take from their
 * sender's signed timestamp to the hub's acceptance, and one per hop of a
 * message's path through the hub (telemetry.ts). `HubMetrics` reads the
 * stats at each scrape and observes the hub (observe.ts) for what the stats
 * do not keep; `metrics-server.ts` serves it over HTTP.
 */
import { readFileSync } from "node:fs";
import { Histogram } from "./histogram.js";
import type { OCPHub } from "./hub.js";
import { HUB_METRICS_DELAY_BUCKETS_SECONDS, HUB_METRICS_MAX_CODES } from "./limits.js";
import { HUB_HOPS, telemetryOf } from "./telemetry.js";

/** The content type of the exposition. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

type Labels = Record<string, string>;

/** A label value escaped for the exposition (backslash, double quote, newline). */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labelText(labels: Labels | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return "";
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}`;
}

function numberText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/** Writes metric families: one `# HELP`, one `# TYPE`, then its samples. */
class Exposition {
  readonly #lines: string[] = [];

  family(
    name: string,
    type: "counter" | "gauge",
    help: string,
    samples: Array<[Labels | undefined, number]>,
  ): void {
    this.#lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) {
      this.#lines.push(`${name}${labelText(labels)} ${numberText(value)}`);
    }
  }

  histogram(name: string, help: string, series: Array<[Labels, Histogram]>): void {
    this.#lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
    for (const [labels, h] of series) {
      let cumulative = 0;
      h.bounds.forEach((bound, i) => {
        cumulative += h.counts[i]!;
        const le = { ...labels, le: numberText(bound) };
        this.#lines.push(`${name}_bucket${labelText(le)} ${cumulative}`);
      });
      this.#lines.push(`${name}_bucket${labelText({ ...labels, le: "+Inf" })} ${h.count}`);
      this.#lines.push(`${name}_sum${labelText(labels)} ${numberText(h.sum)}`);
      this.#lines.push(`${name}_count${labelText(labels)} ${h.count}`);
    }
  }

  text(): string {
    return `${this.#lines.join("\n")}\n`;
  }
}

const VERSION = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    return String((pkg as { version?: unknown }).version ?? "unknown");
  } catch {
    return "unknown";
  }
})();

/**
 * A hub's metrics: counts what it observes from its creation on (attach it
 * right after the hub starts), and reads `hub.stats()` at each
 * {@link render}. {@link close} stops observing.
 */
export class HubMetrics {
  readonly #hub: OCPHub;
  readonly #stop: () => void;
  readonly #delay = {
    durable: new Histogram(HUB_METRICS_DELAY_BUCKETS_SECONDS),
    transient: new Histogram(HUB_METRICS_DELAY_BUCKETS_SECONDS),
  };
  #registrations = 0;
  #departures = 0;

  constructor(hub: OCPHub) {
    this.#hub = hub;
    this.#stop = hub.observe((event) => {
      if (event.kind === "agent.registered") this.#registrations += 1;
      else if (event.kind === "agent.left") this.#departures += 1;
      else if (event.kind === "message.accepted" && event.sentAt !== undefined) {
        const sent = Date.parse(event.sentAt);
        if (Number.isNaN(sent)) return;
        // A sender's clock ahead of ours gives a negative delay: counted as 0.
        const seconds = Math.max(0, event.at - sent) / 1000;
        this.#delay[event.durable ? "durable" : "transient"].observe(seconds);
      }
    });
  }

  /** The exposition text of the hub's metrics now. */
  render(): string {
    const stats = this.#hub.stats();
    const out = new Exposition();
    const clustered = this.#hub.bus.cluster !== undefined;
    out.family("ocp_hub_info", "gauge", "The hub: its id, package version and store.", [
      [{ hub_id: this.#hub.self.id, version: VERSION, store: clustered ? "nats" : "sqlite" }, 1],
    ]);
    out.family("ocp_hub_agents_connected", "gauge", "Agents connected now.", [
      [undefined, stats.connected],
    ]);
    out.family("ocp_hub_agents_known", "gauge", "Agents ever registered at this hub.", [
      [undefined, stats.known],
    ]);
    out.family("ocp_hub_subscriptions", "gauge", "Event subscriptions held now.", [
      [undefined, stats.subscriptions],
    ]);
    out.family(
      "ocp_hub_agent_registrations_total",
      "counter",
      "Agents registered on a connection since the metrics started.",
      [[undefined, this.#registrations]],
    );
    out.family(
      "ocp_hub_agent_departures_total",
      "counter",
      "Agent connections closed since the metrics started.",
      [[undefined, this.#departures]],
    );
    out.family("ocp_hub_messages_accepted_total", "counter", "Messages accepted and routed.", [
      [undefined, stats.accepted],
    ]);
    out.family(
      "ocp_hub_messages_refused_total",
      "counter",
      "Messages and frames refused, by the code the hub answered.",
      refusalSamples(stats.rejectedByCode),
    );
    out.family("ocp_hub_messages_committed_total", "counter", "Durable messages committed.", [
      [undefined, stats.committed],
    ]);
    out.family(
      "ocp_hub_deliveries_total",
      "counter",
      "Deliveries handed to connections (durable and transient).",
      [[undefined, stats.delivered]],
    );
    out.family(
      "ocp_hub_slow_consumer_closes_total",
      "counter",
      "Connections closed as slow consumers (4003).",
      [[undefined, stats.slowConsumerCloses]],
    );
    out.family(
      "ocp_hub_outbound_buffer_peak_bytes",
      "gauge",
      "Highest outbound buffer of any connection so far, bytes.",
      [[undefined, stats.peakOutboundBytes]],
    );
    out.family(
      "ocp_hub_store_up",
      "gauge",
      "1 when the store can be reached (0 while a clustered hub's NATS connection is down).",
      [[undefined, stats.storeConnected ? 1 : 0]],
    );
    out.histogram(
      "ocp_hub_message_accept_delay_seconds",
      "Seconds from a message's signed timestamp to its acceptance (durable: once committed); includes clock skew.",
      [
        [{ durability: "durable" }, this.#delay.durable],
        [{ durability: "transient" }, this.#delay.transient],
      ],
    );
    const hops = telemetryOf(this.#hub)?.hops;
    if (hops !== undefined) {
      out.histogram(
        "ocp_hub_hop_duration_seconds",
        "Seconds per hop of a message's path: verify (arrival to checks passed), commit (queued to committed), cluster (NATS publish to this hub's receipt; clocks of two hosts), deliver (accepted or taken from NATS to written to the recipient's connection).",
        HUB_HOPS.map((hop) => [{ hop }, hops[hop]]),
      );
    }
    return out.text();
  }

  close(): void {
    this.#stop();
  }
}

/** Refusals by code, at most {@link HUB_METRICS_MAX_CODES} labels (the rest as `other`). */
function refusalSamples(byCode: Record<string, number>): Array<[Labels, number]> {
  const entries = Object.entries(byCode).sort(([a], [b]) => (a < b ? -1 : 1));
  const samples: Array<[Labels, number]> = [];
  let other = 0;
  for (const [code, count] of entries) {
    if (samples.length < HUB_METRICS_MAX_CODES && /^[a-z0-9_]{1,64}$/.test(code)) {
      samples.push([{ code }, count]);
    } else {
      other += count;
    }
  }
  if (other > 0) samples.push([{ code: "other" }, other]);
  return samples;
}
