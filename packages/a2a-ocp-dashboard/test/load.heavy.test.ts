/**
 * 1,000 agents connected to a real hub (in this process, over real sockets),
 * a tenth of them beaconing, and the dashboard opened in headless Chromium:
 * how long the page takes to show all of them, how long a filter and a jump
 * to the end of the list take, and how many rows are in the DOM
 * (virtualized: a few dozen). Times are printed and written to
 * test-artifacts/load-report.json, never asserted: the machine may be loaded.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { identity, type RawAgent, rawAgent, tempDir, testHubOptions } from "@ocp/testkit";
import { afterAll, expect, it } from "vitest";
import { type Dashboard, startDashboard } from "../src/index.js";
import { ARTIFACTS, launchChromium, screenshot, watchProblems } from "./support.js";

const AGENTS = 1000;
const BEACONING = 100;
const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it(`shows ${AGENTS} connected agents in a virtualized board`, async () => {
  const dir = tempDir("ocp-dashboard-load-");
  cleanups.push(dir.cleanup);
  const hub = await OCPHub.start(testHubOptions(dir.dir));
  cleanups.push(() => hub.close());
  const dashboard: Dashboard = await startDashboard(hub);
  cleanups.push(() => dashboard.close());
  const agents: Array<{ id: ReturnType<typeof identity>; raw: RawAgent }> = [];
  cleanups.push(() => {
    for (const a of agents) a.raw.close();
  });

  const connectStarted = Date.now();
  for (let i = 0; i < AGENTS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, AGENTS - i) }, async (_, j) => {
        const id = identity(`load-${String(i + j).padStart(4, "0")}`);
        return { id, raw: await rawAgent(hub.url, id, 60_000) };
      }),
    );
    agents.push(...batch);
  }
  const connectMs = Date.now() - connectStarted;
  for (const [n, { id, raw }] of agents.slice(0, BEACONING).entries()) {
    const blocked = n % 10 === 0;
    const beacon = createMessage({
      type: "ocp.awareness.beacon",
      from: id.id,
      to: "broadcast",
      payload: {
        status: blocked ? "blocked" : "working",
        availability: "available",
        currentContext: { task: `task ${n}`, ...(blocked ? { blockedOn: `review ${n}` } : {}) },
      },
    });
    raw.send(JSON.stringify(signObject(beacon, id.secretKey)));
  }

  const browser = await launchChromium();
  cleanups.push(browser.close);
  const page = await browser.context.newPage();
  const problems = watchProblems(page);
  const loadStarted = Date.now();
  await page.goto(dashboard.url);
  await page.waitForFunction(
    (n) => document.getElementById("agent-counts")?.textContent?.startsWith(`${n} agents`),
    AGENTS,
    { timeout: 60_000 },
  );
  const loadMs = Date.now() - loadStarted;
  await page.waitForFunction(
    () => /; 10 blocked/.test(document.getElementById("agent-counts")?.textContent ?? ""),
    undefined,
    { timeout: 60_000 },
  );
  const rowsInDom = await page.$$eval("#agents .row", (rows) => rows.length);

  const filterStarted = Date.now();
  await page.fill("#agent-filter", "load-0999");
  await page.waitForFunction(
    () => document.querySelectorAll("#agents .row").length === 1,
    undefined,
    { timeout: 30_000 },
  );
  const filterMs = Date.now() - filterStarted;
  await page.fill("#agent-filter", "");
  await page.focus("#agents");
  const endStarted = Date.now();
  await page.keyboard.press("End");
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll("#agents .row")].some((r) =>
        r.textContent?.includes("load-0999"),
      ),
    undefined,
    { timeout: 30_000 },
  );
  const endMs = Date.now() - endStarted;
  await screenshot(page, "awareness-1000");

  const report = {
    agents: AGENTS,
    beaconing: BEACONING,
    connectAllMs: connectMs,
    pageShowsAllMs: loadMs,
    filterMs,
    scrollToEndMs: endMs,
    rowsInDom,
  };
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, "load-report.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`dashboard load: ${JSON.stringify(report)}`);

  expect(rowsInDom).toBeGreaterThan(0);
  expect(rowsInDom).toBeLessThan(150); // virtualized, not 1,000 rows
  expect(problems).toEqual([]);
}, 300_000);
