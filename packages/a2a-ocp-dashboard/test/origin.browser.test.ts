/**
 * Browser origins in a real browser: a page served from another origin (a
 * local web server on another port) cannot open a WebSocket to the hub
 * (`ocp-hub`, the built CLI) nor read the dashboard's data, while a page of
 * an origin given to `--allow-origin` opens one and receives the hub's ack.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tempDir } from "@ocp/testkit";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, startHubProcess, stopProcesses } from "./support.js";

/** A web server of one blank page: a stand-in for any site open in the browser. */
async function site(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>site</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What the page sees when it opens a socket to `url`: the first message, or the close code. */
function openSocket(page: Page, url: string): Promise<string> {
  return page.evaluate(
    (target) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(target, "a2a-ocp-v1");
        ws.onmessage = (event) => {
          resolve(`message ${String(event.data).slice(0, 200)}`);
          ws.close();
        };
        ws.onclose = (event) => resolve(`closed ${event.code}`);
      }),
    url,
  );
}

describe("browser origins, in headless Chromium", () => {
  let dir: { dir: string; cleanup: () => void };
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let listed: Awaited<ReturnType<typeof site>>;
  let foreign: Awaited<ReturnType<typeof site>>;
  let hub: { hubUrl: string; dashboardUrl: string };

  beforeAll(async () => {
    dir = tempDir("ocp-origin-");
    listed = await site();
    foreign = await site();
    hub = await startHubProcess(dir.dir, ["--allow-origin", listed.origin]);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stopProcesses();
    for (const s of [listed, foreign]) s?.server.close();
    dir?.cleanup();
  });

  it("a page of an unlisted origin cannot open a WebSocket to the hub", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${foreign.origin}/`);
    expect(await openSocket(page, hub.hubUrl)).toBe("closed 1006");
    await page.close();
  }, 60_000);

  it("a page of an origin given to --allow-origin opens one and gets the hub's ack", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${listed.origin}/`);
    expect(await openSocket(page, hub.hubUrl)).toMatch(/^message .*ocp\.connection\.ack/);
    await page.close();
  }, 60_000);

  it("a page of another origin cannot read the dashboard's snapshot", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${foreign.origin}/`);
    const outcome = await page.evaluate(async (url) => {
      try {
        const res = await fetch(url);
        return `read ${(await res.text()).slice(0, 50)}`;
      } catch (error) {
        return `failed ${String(error)}`;
      }
    }, `${hub.dashboardUrl}snapshot.json`);
    expect(outcome).toMatch(/^failed /);
    await page.close();
  }, 60_000);
});
