/**
 * The Federation view in a real browser (issue 44): a dashboard of a hub
 * linked with another organisation's shows a sixth tab, the peer with its
 * link up and what it vouched for, and a row for a public node that crossed;
 * a hub acme does not list, dialling it, shows as one line of refused link
 * attempts and no row; a dashboard of a hub that does not federate shows no
 * such tab.
 */

import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { afterAll, expect, it } from "vitest";
import { startDashboard } from "../src/index.js";
import { linkedOrgs, node, peerEntry, startOrg, streamNodes } from "./federation-support.js";
import { launchChromium, screenshot, watchProblems } from "./support.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it("renders the peer organisation (link up, vouched agents) and a crossed row in the Federation view", async () => {
  const { acme, globex } = await linkedOrgs();
  cleanups.push(
    () => acme.close(),
    () => globex.close(),
  );
  const token = "a-long-random-token-for-the-federation-test";
  const dashboard = await startDashboard(acme.hub, { token, federation: acme.federation });
  cleanups.push(() => dashboard.close());
  const browser = await launchChromium();
  cleanups.push(browser.close);
  const page = await browser.context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${dashboard.url}?token=${token}#federation`);
  await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
  expect(await page.isVisible("#tab-federation")).toBe(true);
  await page.click("#tab-federation");
  const peer = `#peers .peer[data-peer="${globex.key.id}"]`;
  await page.waitForSelector(`${peer}[data-link="up"]`, { timeout: 15_000 });

  const alice = await acme.agent("alice");
  const bob = await globex.agent("bob");
  await page.waitForSelector(`${peer} dd[data-counter="Agents vouched for"]:text-is("1")`, {
    timeout: 15_000,
  });
  const id = await streamNodes(alice, bob.id.id, [node(alice.id.id, "fix-public", "public")]);
  const row = `#crossings .row[data-id="${id}"][data-outcome="crossed"]`;
  await page.waitForSelector(row, { timeout: 15_000 });
  const text = await page.textContent(row);
  expect(text).toContain(globex.key.id);
  expect(text).toContain(alice.id.id);
  expect(text).toContain("ocp.knowledge.stream");
  expect(text).toContain("fix-public title");
  expect(await page.textContent(`${peer} dd[data-counter="Forwarded"]`)).toBe("1");
  expect(await page.isVisible("#view-federation")).toBe(true);

  // initech is not in acme's federate file: its refused hellos are one line, not rows.
  const initechKey = generateIdentity("a2a://initech-hub");
  const initech = await startOrg(
    "initech",
    initechKey,
    [peerEntry("acme", acme.key, acme.federation.url)],
    false,
  );
  cleanups.push(() => initech.close());
  const strangers = await page.waitForSelector('#peers [data-field="strangers"]', {
    timeout: 15_000,
  });
  expect(await strangers.textContent()).toContain(initechKey.id);
  expect(await page.isVisible(row)).toBe(true);
  expect(await page.$$(`#crossings .row:has-text("${initechKey.id}")`)).toEqual([]);
  await screenshot(page, "federation");

  // A dashboard not given a federation: no Federation tab.
  const plain = await startDashboard(globex.hub, { token });
  cleanups.push(() => plain.close());
  const other = await browser.context.newPage();
  await other.goto(`${plain.url}?token=${token}#federation`);
  await other.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
  expect(await other.isHidden("#tab-federation")).toBe(true);
  expect(await other.isVisible("#view-awareness")).toBe(true);
  expect(problems).toEqual([]);
}, 120_000);
