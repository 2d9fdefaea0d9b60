/**
 * The dashboard in Debian's headless Chromium, against a real `ocp-hub
 * --dashboard` process and real agent processes: an agent going blocked
 * shows on the awareness board, a proposal's tally reaches "approved" as
 * verified votes arrive, knowledge flows (private content withheld), and a
 * tampered message shows under refusals. A screenshot of each view is
 * written to test-artifacts/. Times are measured and printed, never asserted.
 */
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { identity, rawAgent, tempDir } from "@ocp/testkit";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AgentProcess,
  launchChromium,
  screenshot,
  startAgentProcess,
  startHubProcess,
  stopProcesses,
  watchProblems,
} from "./support.js";

const WAIT = { timeout: 30_000 };

describe("the dashboard of a live hub, in headless Chromium", () => {
  let dir: { dir: string; cleanup: () => void };
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let hubUrl: string;
  let page: Page;
  let problems: string[];
  let alice: AgentProcess;
  let bob: AgentProcess;
  let carol: AgentProcess;

  beforeAll(async () => {
    dir = tempDir("ocp-dashboard-");
    browser = await launchChromium();
    const started = await startHubProcess(dir.dir);
    hubUrl = started.hubUrl;
    page = await browser.context.newPage();
    problems = watchProblems(page);
    await page.goto(started.dashboardUrl);
    await page.waitForSelector('#connection[data-state="live"]', WAIT);
    alice = await startAgentProcess("alice", hubUrl);
    bob = await startAgentProcess("bob", hubUrl);
    carol = await startAgentProcess("carol", hubUrl);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stopProcesses();
    dir?.cleanup();
  });

  it("shows an agent going blocked on the awareness board", async () => {
    await page.waitForSelector(`[data-agent="${carol.id}"]`, WAIT);
    const started = Date.now();
    await carol.run({
      cmd: "beacon",
      awareness: {
        status: "blocked",
        availability: "available",
        currentContext: { task: "Implement OAuth", blockedOn: "Waiting for API credentials" },
      },
    });
    const row = await page.waitForSelector(
      `[data-agent="${carol.id}"][data-status="blocked"][data-blocked="true"]`,
      WAIT,
    );
    console.log(`dashboard: blocked beacon shown ${Date.now() - started} ms after it was sent`);
    expect(await row.textContent()).toContain("Waiting for API credentials");
    expect(await row.textContent()).toContain("Implement OAuth");
    // Blocked agents come first.
    const first = await page.$eval("#agents .row", (el) => (el as HTMLElement).dataset["agent"]);
    expect(first).toBe(carol.id);
    await screenshot(page, "awareness");
  }, 60_000);

  it("shows a proposal's tally reaching approved as verified votes arrive", async () => {
    await page.keyboard.press("4"); // the Consensus tab, by keyboard
    expect(await page.getAttribute("#tab-consensus", "aria-selected")).toBe("true");
    const { proposalId } = (await bob.run({
      cmd: "propose",
      proposal: {
        topic: "Switch to PostgreSQL",
        proposal: { decision: "Migrate" },
        votingPeriod: 120,
        requiredVotes: 2,
        votingRule: "majority",
      },
    })) as { proposalId: string };
    const card = `[data-proposal="${proposalId}"]`;
    await page.waitForSelector(`${card}[data-status="open"]`, WAIT);
    await alice.run({ cmd: "vote", proposalId, vote: "approve", reasoning: "JSON support" });
    await page.waitForSelector(`${card} [data-voter="${alice.id}"]`, WAIT);
    expect(await page.textContent(`${card} [data-role="tally"]`)).toContain("approve 1");
    expect(await page.getAttribute(card, "data-status")).toBe("open");
    await carol.run({ cmd: "vote", proposalId, vote: "approve", reasoning: "Already run it" });
    // The votes decide it by the rule at once; the page says approved once the proposer does.
    await page.waitForSelector(`${card}[data-status="approved"]`, WAIT);
    expect(await page.textContent(`${card} [data-role="tally"]`)).toContain("approve 2");
    const signatures = await page.$$eval(`${card} [data-voter] td:last-child`, (cells) =>
      cells.map((c) => c.textContent),
    );
    expect(signatures).toEqual(["✓ verified", "✓ verified"]);
    await screenshot(page, "consensus");
  }, 60_000);

  it("shows knowledge flowing, withholding the content of non-public, non-team nodes", async () => {
    await page.click("#tab-knowledge");
    // An agent streams knowledge to its subscribers: Bob subscribes to Alice.
    await bob.run({ cmd: "subscribe", to: alice.id });
    await alice.run({
      cmd: "know",
      nodes: [
        { title: "Public fix for the leak", visibility: "public", metadata: { domain: "backend" } },
        { title: "Workspace salary note", visibility: "workspace" },
      ],
    });
    await page.waitForSelector('#knowledge .row[data-kind="stream"]', WAIT);
    const text = (await page.textContent("#knowledge")) ?? "";
    expect(text).toContain("Public fix for the leak");
    expect(text).toContain("backend");
    expect(text).toContain("workspace: content hidden");
    expect(await page.content()).not.toContain("Workspace salary note");
    await page.waitForSelector("#graph circle", WAIT);
    await screenshot(page, "knowledge");
  }, 60_000);

  it("shows a tampered message under refusals", async () => {
    const mallory = identity("mallory");
    const raw = await rawAgent(hubUrl, mallory);
    try {
      const signed = signObject(
        createMessage({
          type: "ocp.awareness.beacon",
          from: mallory.id,
          to: "broadcast",
          payload: { status: "working", availability: "available" },
        }),
        mallory.secretKey,
      );
      // Tampered after signing: the signature no longer verifies.
      raw.send(JSON.stringify({ ...signed, payload: { status: "idle", availability: "away" } }));
      await page.keyboard.press("5");
      const row = await page.waitForSelector(
        `#refusals .row[data-reason="forged"][data-code="signature_invalid"]`,
        WAIT,
      );
      expect(await row.textContent()).toContain(mallory.id);
      await page.waitForSelector('#reasons [data-reason="forged"]', WAIT);
      await page.waitForSelector("#chart-rate canvas", WAIT);
      await screenshot(page, "health");
    } finally {
      raw.close();
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
