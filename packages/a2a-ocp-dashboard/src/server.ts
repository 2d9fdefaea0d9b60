/**
 * The dashboard server: read-only HTTP (GET and HEAD only) serving the page
 * bundled at build time and one Server-Sent Events stream. Each page gets a
 * snapshot of the in-memory model when it connects, then the changes the
 * model collects from hub events, pushed every `flushIntervalMs`; nothing is
 * read from the hub's store, and a request costs the hub nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { decideAccess, fromAnotherOrigin, isLoopback } from "./access.js";
import type { ObservableHub } from "./events.js";
import { FederationBook, type ObservableFederation } from "./federation.js";
import { DashboardState, DEFAULT_LIMITS, type StateLimits } from "./state.js";

export interface DashboardOptions {
  /** Interface to listen on; default `127.0.0.1`. Anything not loopback needs `token`. */
  host?: string;
  /** Port, 0 for a free one (default). */
  port?: number;
  /** Required off loopback; when set, every request must carry it. */
  token?: string;
  /** Show the content of `workspace` and `private` knowledge nodes too (default off). */
  showAllVisibilities?: boolean;
  /** What an absent node visibility means: the hub's `defaultVisibility` (default `workspace`). */
  defaultVisibility?: string;
  /** How often changes are pushed to open pages, ms (default 250). */
  flushIntervalMs?: number;
  /** How often the hub's counters are sampled, ms (default 1000). */
  sampleIntervalMs?: number;
  limits?: Partial<StateLimits>;
  /** The hub's federation, when it has one: adds the Federation view (federation.ts). */
  federation?: ObservableFederation;
  /** The built page (`index.html`, `app.js`, `app.css`); default the package's `dist/web`. */
  assetsDir?: string;
}

export interface Dashboard {
  /** `http://host:port/` (without the token). */
  readonly url: string;
  readonly port: number;
  readonly state: DashboardState;
  /** Pages connected now. */
  clients(): number;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};
/** An SSE client whose unsent bytes exceed this is dropped (it reconnects and gets a snapshot). */
const MAX_CLIENT_BUFFER_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

function assetsDirectory(given: string | undefined): string {
  if (given !== undefined) return given;
  const candidates = ["./web/", "../dist/web/"].map((p) =>
    fileURLToPath(new URL(p, import.meta.url)),
  );
  const found = candidates.find((dir) => existsSync(`${dir}index.html`));
  if (found === undefined) throw new Error("the dashboard page is not built: run `pnpm build`");
  return found;
}

function loadAssets(dir: string): Map<string, Buffer> {
  const assets = new Map<string, Buffer>();
  for (const name of Object.keys(CONTENT_TYPES)) {
    assets.set(name, readFileSync(`${dir.endsWith("/") ? dir : `${dir}/`}${name}`));
  }
  return assets;
}

/** Starts a dashboard of `hub`. Rejects off loopback without a token. */
export async function startDashboard(
  hub: ObservableHub,
  options: DashboardOptions = {},
): Promise<Dashboard> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopback(host);
  const token = options.token === "" ? undefined : options.token;
  if (!loopback && token === undefined) {
    throw new Error(
      `refusing to serve the dashboard on ${host} without a token: it is not loopback (set a token, or listen on 127.0.0.1)`,
    );
  }
  const assets = loadAssets(assetsDirectory(options.assetsDir));
  const policy = {
    showAllVisibilities: options.showAllVisibilities === true,
    defaultVisibility: options.defaultVisibility ?? "workspace",
  };
  const state = new DashboardState(policy, options.limits);
  const book =
    options.federation &&
    new FederationBook(options.federation, policy, { ...DEFAULT_LIMITS, ...options.limits });
  const stopFederation = book && options.federation?.observe((event) => book.push(event));
  const snapshot = () => ({ ...state.snapshot(), ...(book && { federation: book.view() }) });
  const stopObserving = hub.observe((event) => state.push(event));
  state.seed(hub.connectedAgents());
  state.sample(hub.stats());
  const streams = new Set<ServerResponse>();
  const send = (res: ServerResponse, event: string, data: unknown) => {
    if (res.writableLength > MAX_CLIENT_BUFFER_BYTES) {
      streams.delete(res);
      res.destroy();
      return;
    }
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  /** Applies queued events and pushes the changes to every open page. */
  const push = () => {
    const federation = book?.flush();
    const delta = federation ? { ...state.flush(), federation } : state.flush();
    if (delta === undefined) return;
    for (const res of streams) send(res, "delta", delta);
  };
  const flush = setInterval(push, options.flushIntervalMs ?? 250);
  const sample = setInterval(() => {
    state.sample(hub.stats());
    book?.refresh();
  }, options.sampleIntervalMs ?? 1000);
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(": keep-alive\n\n");
  }, HEARTBEAT_MS);
  for (const timer of [flush, sample, heartbeat]) timer.unref();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://dashboard.invalid");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", ...SECURITY_HEADERS }).end("read-only\n");
      return;
    }
    const access = decideAccess(req, url, { loopback, token });
    if (!access.ok) {
      const text = access.status === 401 ? "a token is required\n" : "misdirected request\n";
      res.writeHead(access.status, { "content-type": "text/plain", ...SECURITY_HEADERS }).end(text);
      return;
    }
    const cookie = access.setCookie === undefined ? {} : { "set-cookie": access.setCookie };
    if (
      (url.pathname === "/events" || url.pathname === "/snapshot.json") &&
      fromAnotherOrigin(req)
    ) {
      res
        .writeHead(403, { "content-type": "text/plain", ...SECURITY_HEADERS })
        .end("cross-origin\n");
      return;
    }
    if (url.pathname === "/events") {
      push(); // Pages already open get what is new; this one gets it in its snapshot.
      res.writeHead(200, {
        "content-type": "text/event-stream",
        connection: "keep-alive",
        ...SECURITY_HEADERS,
        ...cookie,
      });
      streams.add(res);
      req.once("close", () => streams.delete(res));
      send(res, "snapshot", snapshot());
      return;
    }
    if (url.pathname === "/snapshot.json") {
      push();
      res.writeHead(200, { "content-type": "application/json", ...SECURITY_HEADERS, ...cookie });
      res.end(req.method === "HEAD" ? undefined : JSON.stringify(snapshot()));
      return;
    }
    const name = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
    const body = assets.get(name);
    if (body === undefined) {
      res.writeHead(404, { "content-type": "text/plain", ...SECURITY_HEADERS }).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-type": CONTENT_TYPES[name]!, ...SECURITY_HEADERS, ...cookie });
    res.end(req.method === "HEAD" ? undefined : body);
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    state,
    clients: () => streams.size,
    close() {
      closing ??= new Promise<void>((resolve) => {
        stopObserving();
        stopFederation?.();
        for (const timer of [flush, sample, heartbeat]) clearInterval(timer);
        for (const res of streams) res.end();
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
