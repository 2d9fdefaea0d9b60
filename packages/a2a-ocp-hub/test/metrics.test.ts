/**
 * `ocp-hub --metrics`: the real CLI process serves Prometheus text that a
 * strict parser accepts, with the counts of what agents did over real
 * sockets; who may read it (loopback only by default, a bearer token off
 * loopback) and what else is refused.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { afterEach, describe, expect, it } from "vitest";
import { startHubMetrics } from "../src/index.js";
import { HubMetricsError } from "../src/internal.js";
import { parsePrometheusText, sampleValue } from "./prometheus-text.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, init: { headers?: Record<string, string>; method?: string } = {}) {
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? "GET", headers: init.headers ?? {} },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const children: ChildProcess[] = [];
const dirs: Array<{ cleanup: () => void }> = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
  for (const dir of dirs.splice(0)) dir.cleanup();
});

/** Starts `ocp-hub --metrics ...`; resolves with the hub's and the metrics' URLs. */
async function startCli(args: string[], env: Record<string, string> = {}) {
  const dir = tempDir();
  dirs.push(dir);
  const child = spawn(process.execPath, [CLI, "--db", join(dir.dir, "hub.sqlite"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  await until(() => /metrics on (\S+)/.test(stderr) || child.exitCode !== null, "metrics URL");
  const metricsUrl = /metrics on (\S+)/.exec(stderr)?.[1];
  if (metricsUrl === undefined) throw new Error(`ocp-hub exited: ${stderr}`);
  return { hubUrl: stdout.split("\n")[0]!, metricsUrl };
}

describe("ocp-hub --metrics", () => {
  it("serves strict Prometheus text with the counts of what agents did", async () => {
    const { hubUrl, metricsUrl } = await startCli(["--metrics"]);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const alice = identity("alice");
    const bob = identity("bob");
    const a = await client(hubUrl, alice);
    const b = await client(hubUrl, bob);
    try {
      const note = (payload: Record<string, unknown>) =>
        signObject(
          createMessage({ type: "ocp.custom.x", from: alice.id, to: bob.id, payload }),
          alice.secretKey,
        );
      await a.client.send(note({ n: 1 })); // durable: committed before its ack
      const beacon = createMessage({
        type: "ocp.awareness.beacon",
        from: alice.id,
        to: "broadcast",
        payload: { status: "working", availability: "available" },
      });
      await a.client.send(signObject(beacon, alice.secretKey)); // transient
      const tampered = { ...note({ n: 2 }), payload: { n: 3 } };
      await expect(a.client.send(tampered)).rejects.toMatchObject({ code: "signature_invalid" });
      await until(() => b.received.length >= 2, "bob's deliveries");

      const reply = await get(metricsUrl);
      expect(reply.status).toBe(200);
      expect(reply.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
      const families = parsePrometheusText(reply.body);
      expect(families.get("ocp_hub_messages_accepted_total")?.type).toBe("counter");
      expect(families.get("ocp_hub_agents_connected")?.type).toBe("gauge");
      expect(families.get("ocp_hub_message_accept_delay_seconds")?.type).toBe("histogram");
      expect(sampleValue(families, "ocp_hub_agents_connected")).toBe(2);
      expect(sampleValue(families, "ocp_hub_agent_registrations_total")).toBe(2);
      expect(sampleValue(families, "ocp_hub_messages_accepted_total")).toBe(2);
      expect(sampleValue(families, "ocp_hub_messages_committed_total")).toBe(1);
      expect(
        sampleValue(families, "ocp_hub_messages_refused_total", { code: "signature_invalid" }),
      ).toBe(1);
      expect(sampleValue(families, "ocp_hub_store_up")).toBe(1);
      expect(sampleValue(families, "ocp_hub_info", { store: "sqlite" })).toBe(1);
      for (const durability of ["durable", "transient"]) {
        expect(
          sampleValue(families, "ocp_hub_message_accept_delay_seconds_count", { durability }),
        ).toBe(1);
      }
      expect(
        sampleValue(families, "ocp_hub_message_accept_delay_seconds_bucket", {
          durability: "durable",
          le: "10",
        }),
      ).toBe(1);
    } finally {
      await a.client.close();
      await b.client.close();
    }
    const after = parsePrometheusText((await get(metricsUrl)).body);
    expect(sampleValue(after, "ocp_hub_messages_accepted_total")).toBe(2);
    let connected: number | undefined;
    for (let i = 0; i < 200 && connected !== 0; i++) {
      connected = sampleValue(
        parsePrometheusText((await get(metricsUrl)).body),
        "ocp_hub_agents_connected",
      );
      if (connected !== 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(connected).toBe(0);
  }, 60_000);

  it("on loopback refuses a request whose Host names another host (DNS rebinding), 421", async () => {
    const { metricsUrl } = await startCli(["--metrics"]);
    const port = new URL(metricsUrl).port;
    const rebound = await get(metricsUrl, { headers: { host: `attacker.example:${port}` } });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain("ocp_hub_");
    expect((await get(metricsUrl, { headers: { host: `localhost:${port}` } })).status).toBe(200);
  }, 30_000);

  it("answers only GET and HEAD on /metrics: 405 for POST, 404 for other paths", async () => {
    const { metricsUrl } = await startCli(["--metrics"]);
    expect((await get(metricsUrl, { method: "POST" })).status).toBe(405);
    expect((await get(metricsUrl.replace("/metrics", "/snapshot.json"))).status).toBe(404);
    const head = await get(metricsUrl, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  }, 30_000);

  it("off loopback without OCP_HUB_METRICS_TOKEN exits 2 before it serves anything", () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = { ...process.env };
    delete env["OCP_HUB_METRICS_TOKEN"];
    const result = spawnSync(
      process.execPath,
      [CLI, "--db", join(dir.dir, "h.sqlite"), "--metrics", "--metrics-host", "0.0.0.0"],
      { encoding: "utf8", env, timeout: 15_000 },
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("OCP_HUB_METRICS_TOKEN");
  });

  it("off loopback with a token refuses a scrape without it or with another one, 401", async () => {
    const token = "s3cret-scrape-token";
    const { metricsUrl } = await startCli(["--metrics", "--metrics-host", "0.0.0.0"], {
      OCP_HUB_METRICS_TOKEN: token,
    });
    const url = metricsUrl.replace("0.0.0.0", "127.0.0.1");
    const none = await get(url);
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toContain("Bearer");
    expect(none.body).not.toContain("ocp_hub_");
    const wrong = await get(url, { headers: { authorization: "Bearer not-it" } });
    expect(wrong.status).toBe(401);
    const query = await get(`${url}?token=${token}`);
    expect(query.status).toBe(401);
    const right = await get(url, { headers: { authorization: `Bearer ${token}` } });
    expect(right.status).toBe(200);
    expect(sampleValue(parsePrometheusText(right.body), "ocp_hub_agents_connected")).toBe(0);
  }, 30_000);

  it("--metrics-port without --metrics is bad usage, exit 2", () => {
    const result = spawnSync(process.execPath, [CLI, "--metrics-port", "9464"], {
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      "ocp-hub: --metrics-host and --metrics-port need --metrics",
    );
  });
});

describe("startHubMetrics", () => {
  it("rejects off loopback without a token with HubMetricsError metrics_unprotected", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const hub = await startHub(dir.dir);
    try {
      const started = startHubMetrics(hub, { host: "0.0.0.0" });
      await expect(started).rejects.toBeInstanceOf(HubMetricsError);
      await expect(started).rejects.toMatchObject({ code: "metrics_unprotected" });
      const served = await startHubMetrics(hub);
      const families = parsePrometheusText((await get(served.url)).body);
      expect(sampleValue(families, "ocp_hub_info", { hub_id: hub.self.id })).toBe(1);
      await served.close();
    } finally {
      await hub.close();
    }
  });
});

describe("the strict exposition reader the tests rely on", () => {
  it.each([
    ["no final newline", "# TYPE a_total counter\na_total 1"],
    ["a sample before its TYPE", "a_total 1\n# TYPE a_total counter\n"],
    ["a counter without _total", "# TYPE a counter\na 1\n"],
    ["a negative counter", "# TYPE a_total counter\na_total -1\n"],
    ["a duplicate series", '# TYPE a gauge\na{x="1"} 1\na{x="1"} 2\n'],
    ["a bad escape", '# TYPE a gauge\na{x="\\t"} 1\n'],
    ["a split family", "# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\n# HELP a again\n"],
    ["a value that is no number", "# TYPE a gauge\na one\n"],
    [
      "buckets that are not cumulative",
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
    ],
  ])("refuses %s", (_why, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
