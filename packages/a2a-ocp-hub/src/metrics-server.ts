/**
 * `GET /metrics` for Prometheus, on its own HTTP server (never on the agents'
 * WebSocket port). Closed unless started: `ocp-hub --metrics` or
 * {@link startHubMetrics}. Who may read it:
 *
 * - On loopback (the default, `127.0.0.1`) anyone on this machine may, and the
 *   request's `Host` must name a loopback host (a page that rebinds a DNS name
 *   to 127.0.0.1 is refused, HTTP 421).
 * - Anywhere else a token is required: the server refuses to start without
 *   one, and every request must carry it as `Authorization: Bearer TOKEN`
 *   (Prometheus: `authorization: {credentials: TOKEN}`); otherwise HTTP 401.
 *   A token may be set on loopback too.
 *
 * Only `GET`/`HEAD /metrics` is served (405 for other methods, 404 for other paths).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import type { OCPHub } from "./hub.js";
import { HUB_METRICS_REQUEST_TIMEOUT_MS } from "./limits.js";
import { HubMetrics, PROMETHEUS_CONTENT_TYPE } from "./metrics.js";

export interface HubMetricsServerOptions {
  /** Interface to listen on; default `127.0.0.1`. Anything not loopback needs `token`. */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  /** The bearer token a scrape must carry; required off loopback. */
  token?: string;
}

export interface HubMetricsServer {
  /** `http://host:port/metrics`. */
  readonly url: string;
  readonly metrics: HubMetrics;
  close(): Promise<void>;
}

/** Why the metrics server would not start (code `metrics_unprotected`). */
export class HubMetricsError extends Error {
  readonly code = "metrics_unprotected";
}

/** Whether `host` (an interface or a Host header's name) is loopback only. */
export function isLoopbackName(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

function hostHeaderIsLoopback(request: IncomingMessage): boolean {
  const host = request.headers.host;
  if (host === undefined) return false;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
  return isLoopbackName(name);
}

const digest = (value: string) => createHash("sha256").update(value).digest();

function bearerMatches(request: IncomingMessage, token: string): boolean {
  const auth = request.headers.authorization;
  if (auth === undefined || !auth.startsWith("Bearer ")) return false;
  return timingSafeEqual(digest(auth.slice("Bearer ".length).trim()), digest(token));
}

function reply(res: ServerResponse, status: number, text: string, headers = {}): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  res.end(text);
}

/** Serves `hub`'s metrics; rejects with `HubMetricsError` off loopback without a token. */
export async function startHubMetrics(
  hub: OCPHub,
  options: HubMetricsServerOptions = {},
): Promise<HubMetricsServer> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackName(host);
  const token = options.token === "" ? undefined : options.token;
  if (!loopback && token === undefined) {
    throw new HubMetricsError(
      `refusing to serve metrics on ${host} without a token: it is not loopback (set a token, or listen on 127.0.0.1)`,
    );
  }
  const metrics = new HubMetrics(hub);
  const server = createServer((req, res) => {
    if (loopback && !hostHeaderIsLoopback(req)) return reply(res, 421, "misdirected request\n");
    if (token !== undefined && !bearerMatches(req, token)) {
      return reply(res, 401, "a bearer token is required\n", {
        "www-authenticate": 'Bearer realm="ocp-hub metrics"',
      });
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/metrics") return reply(res, 404, "not found: the metrics are at /metrics\n");
    if (req.method !== "GET" && req.method !== "HEAD") {
      return reply(res, 405, "only GET and HEAD\n", { allow: "GET, HEAD" });
    }
    const body = metrics.render();
    res.writeHead(200, {
      "content-type": PROMETHEUS_CONTENT_TYPE,
      "content-length": Buffer.byteLength(body),
      "cache-control": "no-store",
    });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  server.headersTimeout = HUB_METRICS_REQUEST_TIMEOUT_MS;
  server.requestTimeout = HUB_METRICS_REQUEST_TIMEOUT_MS;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    metrics.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/metrics`,
    metrics,
    close: () =>
      new Promise<void>((resolve) => {
        metrics.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
