/**
 * The per-hop latency histogram (`ocp_hub_hop_duration_seconds`), scraped
 * from a real hub's metrics endpoint after real traffic: one observation
 * per message and hop, cumulative buckets, `+Inf` equal to `_count`.
 */
import { request } from "node:http";
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { afterEach, describe, expect, it } from "vitest";
import { startHubMetrics } from "../src/index.js";
import { HUB_METRICS_HOP_BUCKETS_SECONDS } from "../src/internal.js";
import { type Family, parsePrometheusText, sampleValue } from "./prometheus-text.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

function scrape(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve(body));
    })
      .on("error", reject)
      .end();
  });
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The buckets of one hop, in bound order, checked cumulative and ending at `+Inf` = `_count`. */
function hopBuckets(families: Map<string, Family>, hop: string): number[] {
  const family = families.get("ocp_hub_hop_duration_seconds");
  expect(family?.type).toBe("histogram");
  const buckets = family!.samples.filter(
    (s) => s.name === "ocp_hub_hop_duration_seconds_bucket" && s.labels["hop"] === hop,
  );
  const bounds = buckets.map((s) => s.labels["le"]);
  expect(bounds).toEqual([...HUB_METRICS_HOP_BUCKETS_SECONDS.map(String), "+Inf"]);
  const counts = buckets.map((s) => s.value);
  for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]!);
  const count = sampleValue(families, "ocp_hub_hop_duration_seconds_count", { hop });
  expect(counts.at(-1)).toBe(count);
  return counts;
}

describe("ocp_hub_hop_duration_seconds", () => {
  it("counts each message once per hop it took: verify, commit, deliver (no cluster on one hub)", async () => {
    const dir = tempDir();
    const hub = await startHub(dir.dir);
    const metrics = await startHubMetrics(hub);
    cleanups.push(
      dir.cleanup,
      () => hub.close(),
      () => metrics.close(),
    );
    const alice = identity("alice");
    const bob = identity("bob");
    const a = await client(hub.url, alice);
    const b = await client(hub.url, bob);
    cleanups.push(
      () => a.client.close(),
      () => b.client.close(),
    );
    const before = parsePrometheusText(await scrape(metrics.url));
    expect(hopBuckets(before, "deliver").at(-1)).toBe(0);

    const durable = 5;
    const transient = 3;
    for (let n = 0; n < durable; n++) {
      const note = createMessage({
        type: "ocp.custom.note",
        from: alice.id,
        to: bob.id,
        payload: { n },
      });
      await a.client.send(signObject(note, alice.secretKey));
    }
    for (let n = 0; n < transient; n++) {
      const beacon = createMessage({
        type: "ocp.awareness.beacon",
        from: alice.id,
        to: "broadcast",
        payload: { status: "working", availability: "available" },
      });
      await a.client.send(signObject(beacon, alice.secretKey));
    }
    await until(() => b.received.length === durable + transient, "bob's deliveries");

    const families = parsePrometheusText(await scrape(metrics.url));
    const count = (hop: string) =>
      sampleValue(families, "ocp_hub_hop_duration_seconds_count", { hop });
    expect(count("verify")).toBe(durable + transient);
    expect(count("commit")).toBe(durable);
    expect(count("deliver")).toBe(durable + transient);
    expect(count("cluster")).toBe(0);
    for (const hop of ["verify", "commit", "deliver"]) {
      hopBuckets(families, hop);
      const sum = sampleValue(families, "ocp_hub_hop_duration_seconds_sum", { hop })!;
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThan(10 * count(hop)!); // seconds, not milliseconds
    }
    expect(hopBuckets(families, "cluster").every((n) => n === 0)).toBe(true);
  });
});
