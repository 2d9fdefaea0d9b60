import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { builtinModules } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The root entry runs in a browser: bundled by esbuild for the browser
 * platform (any Node built-in fails the bundle), served from a loopback HTTP
 * server and run in Debian's headless Chromium, which signs, verifies and
 * rejects tampered messages. So does the browser entry
 * (`@ocp/a2a-ocp-messaging/browser`), minified as an app ships it, within
 * the 40 KB gzipped of issue 41 and without zod. The page is served under a hostname mapped to
 * 127.0.0.1, so it is not a secure context (no `crypto.randomUUID`, no
 * `crypto.subtle`), like any page served over plain HTTP.
 */

const CHROMIUM = "/usr/bin/chromium";
const HOST = "messaging.test";
const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Fails the bundle on any Node built-in, naming the module that imports it. */
const noNodeBuiltins: Plugin = {
  name: "no-node-builtins",
  setup(build) {
    const builtins = new Set(builtinModules);
    build.onResolve({ filter: /.*/ }, ({ path, importer }) =>
      path.startsWith("node:") || builtins.has(path) || builtins.has(path.split("/")[0]!)
        ? { errors: [{ text: `Node built-in "${path}" imported by ${importer}` }] }
        : undefined,
    );
  },
};

/** The small bundle's goal (issue 41 §3), gzipped. */
const SMALL_GOAL_GZIP_BYTES = 40 * 1024;

/**
 * An entry as a browser bundler sees it: `@ocp/a2a-ocp-messaging` (or a
 * subpath) resolved through the package's export map with the browser
 * conditions.
 */
async function bundleEntry(
  specifier: string,
  minify = false,
): Promise<{ text: string; inputs: string[]; shipped: string[] }> {
  expect(existsSync(join(packageDir, "dist/index.js")), "dist is missing: run pnpm build").toBe(
    true,
  );
  const result = await build({
    stdin: {
      contents: `export * from "${specifier}";`,
      resolveDir: packageDir,
      loader: "js",
    },
    absWorkingDir: packageDir, // the metafile's paths are relative to the package, wherever vitest runs
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify,
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [noNodeBuiltins],
  });
  const inputs = Object.keys(result.metafile.inputs);
  const ownModules = inputs.filter((path) => path.startsWith("dist/"));
  expect(
    ownModules.filter((path) => path.startsWith("dist/node/") || path.endsWith(".node.js")),
  ).toEqual([]);
  // Every module read, and those whose code reached the bundle (the rest were tree-shaken).
  const output = Object.values(result.metafile.outputs)[0]!.inputs;
  const shipped = Object.keys(output).filter((path) => output[path]!.bytesInOutput > 0);
  return { text: result.outputFiles[0]!.text, inputs, shipped };
}

async function bundleRootEntry(): Promise<string> {
  const { text, inputs } = await bundleEntry("@ocp/a2a-ocp-messaging");
  expect(inputs).toContain("dist/index.js");
  return text;
}

/** The browser entry, minified: within the goal, and no zod module in it. */
async function bundleSmallEntry(): Promise<string> {
  const { text, inputs, shipped } = await bundleEntry("@ocp/a2a-ocp-messaging/browser", true);
  expect(inputs).toContain("dist/browser.js");
  expect(shipped).toContain("dist/generated/plain-checks.js");
  expect(shipped.filter((path) => /(^|\/)zod\//.test(path))).toEqual([]);
  expect(gzipSync(text).length).toBeLessThanOrEqual(SMALL_GOAL_GZIP_BYTES);
  return text;
}

const page = (scenario: string) => `<!doctype html>
<meta charset="utf-8">
<title>a2a-ocp-messaging in a browser</title>
<link rel="icon" href="data:,">
<script type="module">
  import { run } from "./${scenario}";
  run().then(
    (result) => { window.__result = { result }; },
    (error) => { window.__result = { error: String(error?.stack ?? error) }; },
  );
</script>
`;

function serve(files: Record<string, { type: string; body: string }>): Promise<Server> {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://x").pathname];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": file.type, "cache-control": "no-store" });
    response.end(file.body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

describe("the root entry in headless Chromium", () => {
  let server: Server | undefined;
  let context: BrowserContext | undefined;
  let profileDir: string | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: the browser test runs Debian's chromium. ` +
          "Install it with `sudo apt-get install -y chromium` (`apt-get install -y chromium` as root), as CI does.",
      );
    }
    const js = "text/javascript; charset=utf-8";
    server = await serve({
      "/": { type: "text/html; charset=utf-8", body: page("scenario.js") },
      "/messaging.js": { type: js, body: await bundleRootEntry() },
      "/scenario.js": {
        type: js,
        body: readFileSync(join(packageDir, "test/browser/scenario.js"), "utf8"),
      },
      "/small.html": { type: "text/html; charset=utf-8", body: page("small-scenario.js") },
      "/small.js": { type: js, body: await bundleSmallEntry() },
      "/small-scenario.js": {
        type: js,
        body: readFileSync(join(packageDir, "test/browser/small-scenario.js"), "utf8"),
      },
    });
    profileDir = await mkdtemp(join(tmpdir(), "ocp-chromium-"));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-proxy-server",
        `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (profileDir !== undefined) await rm(profileDir, { recursive: true, force: true });
  });

  /** Opens `path` in a new tab and returns what its scenario's `run()` gave, failing on any page error. */
  async function runPage(path: string): Promise<unknown> {
    const tab = await context!.newPage();
    const problems: string[] = [];
    tab.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    tab.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    const { port } = server!.address() as AddressInfo;
    await tab.goto(`http://${HOST}:${port}${path}`);
    const handle = await tab.waitForFunction(
      () => (globalThis as { __result?: unknown }).__result,
      {
        timeout: 30_000,
      },
    );
    const outcome = (await handle.jsonValue()) as { result?: unknown; error?: string };
    expect(problems).toEqual([]);
    expect(outcome.error).toBeUndefined();
    return outcome.result;
  }

  it("bundles for the browser platform, then signs, verifies and rejects tampering", async () => {
    const result = await runPage("/");
    expect(result).toEqual({
      secureContext: false,
      nodeGlobals: [],
      id: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      profilesVerify: [true, true],
      verify: "ok",
      verifyTampered: "signature_invalid",
      verifyWrongSender: "signature_invalid",
      inbox: {
        accepted: "ok",
        vote: "approve",
        replayed: "replay_detected",
        tampered: "signature_invalid",
        unsigned: "signature_missing",
      },
    });
  }, 60_000);

  it("the browser entry, minified within 40 KB gzipped and without zod, creates, signs and verifies, and refuses forged messages and profiles", async () => {
    expect(await runPage("/small.html")).toEqual({
      secureContext: false,
      id: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      profileVerifies: true,
      decoded: "ok",
      vote: "approve",
      verify: "ok",
      forged: {
        tampered: "signature_invalid",
        signedByAnother: "signature_invalid",
        unsigned: "signature_missing",
        profile: "invalid_profile",
      },
      invalid: "invalid_message",
    });
  }, 60_000);
});
