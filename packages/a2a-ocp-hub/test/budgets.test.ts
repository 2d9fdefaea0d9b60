/**
 * Budgets per agent, not per socket (wire doc, "Budgets per agent"): a real
 * hub on a real socket, agents on raw sockets sending exact frames, and the
 * hub's clock moved forward to end a window.
 */
import { type RawAgent, rawAgent } from "@ocp/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HubEvent, OCPHub } from "../src/index.js";
import {
  HUB_BUDGET_WINDOW_MS,
  HUB_DISCOVERY_QUERIES_PER_MINUTE,
  HUB_LOOKUPS_PER_MINUTE,
  HUB_OVER_BUDGET_FRAMES_BEFORE_CLOSE,
  HUB_REFUSALS_PER_MINUTE,
} from "../src/limits.js";
import { client, identity, startHub, tempDir, until, within } from "./support.js";

let tmp: ReturnType<typeof tempDir>;
let hub: OCPHub;
let skew = 0; // ms added to the hub's clock
const raws: RawAgent[] = [];
const events: HubEvent[] = [];

beforeEach(async () => {
  tmp = tempDir("ocp-budgets-");
  skew = 0;
  events.length = 0;
  hub = await startHub(tmp.dir, { now: () => Date.now() + skew });
  hub.observe((event) => events.push(event));
});

afterEach(async () => {
  for (const raw of raws.splice(0)) raw.close();
  await hub.close();
  tmp.cleanup();
});

async function raw(id = identity("raw")): Promise<RawAgent> {
  const agent = await rawAgent(hub.url, id);
  raws.push(agent);
  return agent;
}

const query = (n: number) =>
  `{"protocol":"a2a+ocp","type":"ocp.hub.discovery.query","payload":{"queryId":"q-${n}","limit":1}}`;
const lookup = (agentId: string) =>
  `{"protocol":"a2a+ocp","type":"ocp.hub.lookup","payload":{"agentId":"${agentId}"}}`;
const closed = (agent: RawAgent) =>
  new Promise<number>((resolve) => agent.ws.once("close", (code) => resolve(code)));

describe("budgets per agent id", () => {
  it("an agent that reconnects after spending its discovery budget stays refused until the window ends", async () => {
    const greedy = identity("greedy");
    const first = await raw(greedy);
    for (let i = 0; i < HUB_DISCOVERY_QUERIES_PER_MINUTE; i++) first.send(query(i));
    await until(() => first.controls().length === HUB_DISCOVERY_QUERIES_PER_MINUTE, "answers");
    expect(first.controls().every((c) => c.type === "ocp.hub.discovery.result")).toBe(true);
    first.close();
    const again = await raw(greedy);
    again.send(query(1000));
    await until(() => again.controls().length === 1, "the refusal");
    const [refusal] = again.controls();
    expect(refusal).toMatchObject({
      type: "ocp.hub.reject",
      payload: {
        code: "rate_limited",
        id: "q-1000",
        details: { limit: "HUB_DISCOVERY_QUERIES_PER_MINUTE" },
      },
    });
    const details = (refusal?.payload["details"] ?? {}) as { retryAfterMs?: number };
    const wait = details.retryAfterMs ?? 0;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(HUB_BUDGET_WINDOW_MS);
    // A legitimate other agent is unaffected.
    const other = await client(hub.url, identity("other"), { reconnect: false });
    expect((await other.client.findAgents({ limit: 1 })).agents).toHaveLength(1);
    await other.client.close();
    // Once the window has passed, the budget is whole again.
    skew = wait;
    again.send(query(1001));
    await until(() => again.controls().length === 2, "the answer");
    expect(again.controls()[1]).toMatchObject({
      type: "ocp.hub.discovery.result",
      payload: { queryId: "q-1001" },
    });
  }, 30_000);

  it("lookups are budgeted: past HUB_LOOKUPS_PER_MINUTE they are refused rate_limited", async () => {
    const looker = await raw(identity("looker"));
    const target = identity("target");
    await raw(target);
    for (let i = 0; i <= HUB_LOOKUPS_PER_MINUTE; i++) looker.send(lookup(target.id));
    await until(() => looker.controls().length === HUB_LOOKUPS_PER_MINUTE + 1, "every answer");
    const answers = looker.controls();
    expect(answers.slice(0, -1).every((c) => c.type === "ocp.hub.profile")).toBe(true);
    expect(answers.at(-1)).toMatchObject({
      type: "ocp.hub.reject",
      payload: {
        code: "rate_limited",
        details: { limit: "HUB_LOOKUPS_PER_MINUTE", agentId: target.id },
      },
    });
  }, 30_000);

  it("a HubClient whose lookup is refused over budget settles it at once (no key), not after its 10 s lookup timeout", async () => {
    const looker = identity("budgeted-client");
    const target = identity("target");
    await raw(target);
    const spender = await raw(looker);
    for (let i = 0; i < HUB_LOOKUPS_PER_MINUTE; i++) spender.send(lookup(target.id));
    await until(() => spender.controls().length === HUB_LOOKUPS_PER_MINUTE, "every answer");
    spender.close();
    const joined = await client(hub.url, looker, { reconnect: false });
    try {
      // CLIENT_LOOKUP_TIMEOUT_MS is 10 s: an answer inside 5 s is the hub's refusal, taken.
      expect(await within(Promise.resolve(joined.client.lookupKey(target.id)), 5_000)).toBe(
        undefined,
      );
    } finally {
      await joined.client.close();
    }
  }, 30_000);

  it("a flood of malformed frames is answered, then rate_limited and audited once, then closed 4008; a reconnect inside the window is closed again", async () => {
    const flooder = identity("flooder");
    const agent = await raw(flooder);
    const bystander = await client(hub.url, identity("bystander"), { reconnect: false });
    const code = closed(agent);
    // Malformed messages and malformed control frames spend one budget.
    const half = HUB_REFUSALS_PER_MINUTE / 2;
    for (let i = 0; i < half; i++) agent.send(`not json ${i}`);
    for (let i = 0; i < half; i++) agent.send('{"protocol":"a2a+ocp","type":"ocp.hub.nope"}');
    for (let i = 0; i <= HUB_OVER_BUDGET_FRAMES_BEFORE_CLOSE; i++) agent.send(`not json ${i}`);
    expect(await code).toBe(4008);
    const codes = agent.controls().map((c) => c.payload["code"]);
    expect(codes.filter((c) => c === "invalid_json")).toHaveLength(half);
    expect(codes.filter((c) => c === "hub_frame_invalid")).toHaveLength(half);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(
      HUB_OVER_BUDGET_FRAMES_BEFORE_CLOSE,
    );
    // One refusal recorded per malformed message within the budget, one for the whole excess.
    const refused = events.filter(
      (e) => e.kind === "message.refused" && e.from === flooder.id,
    ) as Array<{ code: string }>;
    expect(refused.map((e) => e.code)).toEqual([
      ...Array.from({ length: half }, () => "invalid_json"),
      "rate_limited",
    ]);
    // Reconnecting does not refill it: the next bad frame closes at once.
    const back = await raw(flooder);
    const again = closed(back);
    back.send("still not json");
    expect(await again).toBe(4008);
    // The bystander is unaffected.
    expect((await bystander.client.findAgents({ limit: 1 })).agents).toHaveLength(1);
    const receipt = await bystander.client.send({
      type: "ocp.custom.ping",
      to: "broadcast",
      payload: {},
    });
    expect(receipt.durable).toBe(false);
    await bystander.client.close();
  }, 30_000);
});
