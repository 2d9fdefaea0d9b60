/**
 * The token rule in a real browser: a dashboard behind a token answers 401
 * to a page load without it; with `?token=` the page loads, the token moves
 * into an HttpOnly cookie (gone from the address bar), and the live stream
 * works with the cookie alone.
 */
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { tempDir, testHubOptions } from "@ocp/testkit";
import { afterAll, expect, it } from "vitest";
import { startDashboard } from "../src/index.js";
import { launchChromium, watchProblems } from "./support.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it("serves a page behind a token only with it, then lives on the cookie", async () => {
  const dir = tempDir("ocp-dashboard-token-");
  cleanups.push(dir.cleanup);
  const hub = await OCPHub.start(testHubOptions(dir.dir));
  cleanups.push(() => hub.close());
  const token = "a-long-random-token-for-the-test";
  const dashboard = await startDashboard(hub, { token });
  cleanups.push(() => dashboard.close());
  const browser = await launchChromium();
  cleanups.push(browser.close);
  const without = await browser.context.newPage();
  const refused = await without.goto(dashboard.url);
  expect(refused?.status()).toBe(401);
  await without.close();

  // A fresh page: the refused one's own requests (its favicon) log 401s.
  const page = await browser.context.newPage();
  const problems = watchProblems(page);
  const loaded = await page.goto(`${dashboard.url}?token=${token}`);
  expect(loaded?.status()).toBe(200);
  await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
  expect(page.url()).not.toContain(token);
  const cookies = await browser.context.cookies(dashboard.url);
  expect(cookies.find((c) => c.name === "ocp_dashboard_token")).toMatchObject({
    httpOnly: true,
    sameSite: "Strict",
  });
  expect(await page.evaluate(() => document.cookie)).toBe(""); // not readable by scripts
  expect(problems).toEqual([]);
}, 120_000);
