/**
 * The dashboard during the real team demo (`ocp-team-demo --dashboard`:
 * an `ocp-hub` process and four agent processes), in Debian's headless
 * Chromium, while it runs (issue 43): the collective query and its synthesis,
 * the team's knowledge with its content (the demo opts in for its loopback
 * run) and the contradiction linked in the graph, a tally that grows vote by
 * vote and shows the outcome only once the proposer decides, Carol blocked
 * while she is online, and counts that agree with the rows. With
 * `OCP_UPDATE_SCREENSHOT=1` it writes the README's screenshot,
 * `docs/dashboard.png`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, watchProblems } from "./support.js";

const WAIT = { timeout: 45_000 };
const DEMO = fileURLToPath(new URL("../../../apps/demo-team/bin/team-demo.mjs", import.meta.url));
const README_SCREENSHOT = fileURLToPath(new URL("../docs/dashboard.png", import.meta.url));
/** The README's screenshot stays small. */
const MAX_SCREENSHOT_BYTES = 300 * 1024;

describe("the dashboard during the team demo, in headless Chromium", () => {
  let demo: ChildProcess;
  let exited: Promise<number | null>;
  let output = "";
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    demo = spawn(process.execPath, [DEMO, "--dashboard"], { stdio: ["ignore", "pipe", "pipe"] });
    exited = new Promise((resolve) => demo.once("exit", (code) => resolve(code)));
    demo.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no dashboard URL:\n${output}`)), 30_000);
      demo.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const found = /^dashboard\s+(http:\/\/\S+)/m.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
    });
    browser = await launchChromium();
    page = await browser.context.newPage();
    problems = watchProblems(page);
    await page.goto(url);
    await page.waitForSelector('#connection[data-state="live"]', WAIT);
    // Every state a proposal card shows, in order, as the page draws it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (globalThis as unknown as { seenProposals: string[] }).seenProposals = seen;
      const container = document.getElementById("proposals")!;
      new MutationObserver(() => {
        for (const card of container.querySelectorAll<HTMLElement>("[data-proposal]")) {
          const tally = card.querySelector('[data-role="tally"]')?.firstChild?.textContent;
          const state = `${card.dataset["status"]} | ${tally}`;
          if (seen.at(-1) !== state) seen.push(state);
        }
      }).observe(container, { childList: true, subtree: true });
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (demo !== undefined && demo.exitCode === null && demo.signalCode === null) {
      demo.kill("SIGINT");
      const timer = setTimeout(() => demo.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    }
  });

  it("shows the collective query as it happens, then its synthesis with the dissent", async () => {
    await page.click("#tab-queries");
    const card = '[data-query][data-status="synthesized"]';
    await page.waitForSelector(card, WAIT);
    const text = (await page.textContent(card)) ?? "";
    expect(text).toContain("What's our approach to authentication?");
    expect(text).toContain("asked by a2a://alice");
    const responders = await page.$$eval(`${card} [data-responder]`, (rows) =>
      rows.map((r) => (r as HTMLElement).dataset["responder"]).sort(),
    );
    expect(responders).toEqual(["a2a://bob", "a2a://carol", "a2a://dave"]);
    const synthesis = (await page.textContent(`${card} [data-role="synthesis"]`)) ?? "";
    expect(synthesis).toContain("Authentication uses short-lived JWT access tokens");
    expect(await page.textContent(`${card} [data-role="dissent"]`)).toContain(
      "Admin console authentication uses server-side sessions (a2a://dave) contradicts",
    );
    await screenshot(page, "team-demo-queries");
  }, 60_000);

  it("shows the team's knowledge with its content, and the contradiction linked in the graph", async () => {
    await page.click("#tab-knowledge");
    await page.waitForSelector('#knowledge .row[data-kind="response"]', WAIT);
    const list = (await page.textContent("#knowledge")) ?? "";
    expect(list).toContain("WebSocket memory leak fix");
    expect(list).toContain("Login uses OAuth with GitHub");
    expect(list).not.toContain("content hidden");
    await page.waitForSelector("#graph line.edge.contradiction", WAIT);
    const graph = await page.getAttribute("#graph", "aria-label");
    const [, nodes, edges] = /(\d+) nodes, (\d+) edges/.exec(graph ?? "") ?? [];
    expect(Number(nodes)).toBeGreaterThanOrEqual(5);
    expect(Number(edges)).toBeGreaterThanOrEqual(2);
    expect(await page.textContent("#graph")).toContain("Login uses OAuth with GitHub");
    await screenshot(page, "team-demo-knowledge");
  }, 60_000);

  it("grows the tally vote by vote and shows approved only once the proposer decides", async () => {
    await page.click("#tab-consensus");
    const card = '[data-proposal][data-status="approved"]';
    await page.waitForSelector(card, WAIT);
    const seen = await page.evaluate(
      () => (globalThis as unknown as { seenProposals: string[] }).seenProposals,
    );
    const first = (state: string) => seen.indexOf(state);
    expect(seen, seen.join("\n")).toContain("open | approve 1 · reject 0 · abstain 0");
    expect(seen).toContain("open | approve 2 · reject 0 · abstain 0");
    expect(first("open | approve 1 · reject 0 · abstain 0")).toBeLessThan(
      first("open | approve 2 · reject 0 · abstain 0"),
    );
    // Approved is shown only with the three votes in, and never before a state still open.
    const approved = seen.findIndex((s) => s.startsWith("approved"));
    expect(seen[approved]).toBe("approved | approve 2 · reject 1 · abstain 0");
    expect(seen.slice(0, approved).every((s) => s.startsWith("open"))).toBe(true);
    const signatures = await page.$$eval(`${card} [data-voter] td:last-child`, (cells) =>
      cells.map((c) => c.textContent),
    );
    expect(signatures).toEqual(["✓ verified", "✓ verified", "✓ verified"]);
    await screenshot(page, "team-demo-consensus");
  }, 60_000);

  it("shows Carol blocked while she is online, with counts that agree with the rows", async () => {
    await page.click("#tab-awareness");
    const carol = '[data-agent="a2a://carol"][data-blocked="true"][data-presence="online"]';
    const row = await page.waitForSelector(carol, WAIT);
    expect(await row.textContent()).toContain("Waiting for API credentials");
    // Blocked agents come first.
    expect(await page.$eval("#agents .row", (el) => (el as HTMLElement).dataset["agent"])).toBe(
      "a2a://carol",
    );
    // The counts, computed from the rows the page shows.
    const rows = await page.$$eval("#agents .row", (els) =>
      els.map((el) => ({ ...(el as HTMLElement).dataset })),
    );
    const count = (test: (r: Record<string, string | undefined>) => boolean) =>
      rows.filter(test).length;
    const online = count((r) => r["presence"] === "online");
    const away = count((r) => r["presence"] === "away");
    const offline = count((r) => r["presence"] === "offline");
    const blocked = count((r) => r["blocked"] === "true");
    expect(rows).toHaveLength(4);
    expect(blocked).toBe(1);
    expect(await page.textContent("#agent-counts")).toBe(
      `${rows.length} agents: ${online} online, ${away} away, ${offline} offline; ${blocked} blocked`,
    );
    const summary = Object.fromEntries(
      await page.$$eval("#summary [data-count]", (els) =>
        els.map((el) => [
          (el as HTMLElement).dataset["count"],
          Number((el as HTMLElement).dataset["value"]),
        ]),
      ),
    );
    const proposals = await page.$$eval("#proposals [data-proposal]", (els) => els.length);
    const queries = await page.$$eval("#queries [data-query]", (els) => els.length);
    expect(summary).toMatchObject({
      connected: online + away,
      blocked,
      queries,
      proposals,
    });
    expect(queries).toBe(1);
    expect(proposals).toBe(1);
    await screenshot(page, "team-demo-awareness");
  }, 60_000);

  it("ends the demo cleanly on Ctrl-C, with no error in the page", async () => {
    if (process.env["OCP_UPDATE_SCREENSHOT"] === "1") {
      await page.click("#tab-queries");
      await page.screenshot({ path: README_SCREENSHOT, fullPage: false });
      expect(statSync(README_SCREENSHOT).size).toBeLessThan(MAX_SCREENSHOT_BYTES);
    }
    expect(problems).toEqual([]);
    // At the end of the scenario the agents stay connected until Ctrl-C.
    const end = Date.now() + WAIT.timeout;
    while (!output.includes("press Ctrl-C to stop") && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(output).toContain("press Ctrl-C to stop");
    expect(demo.exitCode).toBeNull();
    expect(await page.getAttribute('[data-agent="a2a://carol"]', "data-presence")).toBe("online");
    demo.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(output).toContain("temporary files removed");
  }, 60_000);
});
