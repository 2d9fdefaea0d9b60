import { matchesEventType } from "@ocp/a2a-ocp-messaging";
import { matchesFilters, VISIBILITIES } from "@ocp/a2a-ocp-messaging/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { route } from "../src/router.js";
import { SubscriptionTable } from "../src/subscriptions.js";

const AGENTS = ["a2a://a", "a2a://b", "a2a://c", "a2a://d", "a2a://e"];
const TEAMS: Record<string, string | undefined> = {
  "a2a://a": "red",
  "a2a://b": "red",
  "a2a://c": "blue",
  "a2a://d": undefined,
  "a2a://e": "blue",
};

const nodeArb = fc.record({
  id: fc.string({ minLength: 1, maxLength: 4 }),
  createdBy: fc.constantFrom(...AGENTS),
  visibility: fc.option(fc.constantFrom(...VISIBILITIES), { nil: undefined }),
  sharedWith: fc.option(fc.subarray(AGENTS), { nil: undefined }),
});

function context(defaultVisibility: (typeof VISIBILITIES)[number]) {
  return {
    known: () => AGENTS,
    attached: () => AGENTS,
    subscriptions: new SubscriptionTable(),
    policy: { teamOf: (agent: string) => TEAMS[agent], defaultVisibility },
  };
}

describe("§8.5 visibility at the hub (property)", () => {
  it("never routes a private node to an agent that is neither its creator nor in sharedWith", () => {
    fc.assert(
      fc.property(
        fc.array(nodeArb, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(...AGENTS),
        fc.oneof(fc.constant("broadcast"), fc.subarray(AGENTS, { minLength: 1 })),
        fc.constantFrom(...VISIBILITIES),
        (nodes, from, to, defaultVisibility) => {
          const payload = { streamId: "s", nodes, isIncremental: true, sequenceNumber: 0 };
          const decided = route(
            { from, to, type: "ocp.knowledge.stream" },
            payload,
            context(defaultVisibility),
          );
          for (const recipient of decided.recipients) {
            for (const n of nodes) {
              const visibility = n.visibility ?? defaultVisibility;
              const granted = n.createdBy === recipient || n.sharedWith?.includes(recipient);
              if (visibility === "private") expect(granted).toBe(true);
              if (visibility === "team" && !granted) {
                expect(TEAMS[n.createdBy]).toBeDefined();
                expect(TEAMS[recipient]).toBe(TEAMS[n.createdBy]);
              }
            }
          }
          expect(decided.durable).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never routes a batched stream or sync response to an excluded agent either", () => {
    fc.assert(
      fc.property(fc.array(nodeArb, { minLength: 1, maxLength: 4 }), (nodes) => {
        const batched = {
          batched: true,
          items: [{ streamId: "s", nodes, isIncremental: true, sequenceNumber: 0 }],
        };
        const sync = {
          syncId: "x",
          nodes,
          edges: [],
          versionVector: {},
          isComplete: true,
          checksum: "c",
        };
        for (const [type, payload] of [
          ["ocp.knowledge.stream", batched],
          ["ocp.knowledge.sync.response", sync],
        ] as const) {
          const decided = route(
            { from: "a2a://a", to: "broadcast", type },
            payload,
            context("private"),
          );
          for (const recipient of decided.recipients) {
            for (const n of nodes) {
              if ((n.visibility ?? "private") === "private") {
                expect(n.createdBy === recipient || n.sharedWith?.includes(recipient)).toBe(true);
              }
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("event subscriptions", () => {
  it("matches * to one segment, a final ** to one or more, and filters by eventData then the event", () => {
    expect(matchesEventType("code.*", "code.deployed")).toBe(true);
    expect(matchesEventType("code.*", "code.a.b")).toBe(false);
    expect(matchesEventType("code.**", "code.a.b")).toBe(true);
    expect(matchesEventType("code.**", "code")).toBe(false);
    expect(matchesEventType("*", "anything.at.all")).toBe(true);
    expect(matchesEventType("bug.found", "bug.found")).toBe(true);
    expect(matchesEventType("bug.found", "bug.fixed")).toBe(false);
    const event = { eventType: "code.deployed", severity: "info", eventData: { env: "prod" } };
    expect(matchesFilters({ env: "prod" }, event)).toBe(true);
    expect(matchesFilters({ env: ["staging", "prod"], severity: "info" }, event)).toBe(true);
    expect(matchesFilters({ env: "staging" }, event)).toBe(false);
    expect(matchesFilters({ env: { nested: 1 } }, event)).toBe(false);
  });
});
