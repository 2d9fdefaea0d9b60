import { matchesEventType } from "@ocp/a2a-ocp-messaging";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentToken, Subjects } from "../../src/nats/subjects.js";

/** NATS subject matching: `*` is one token, a final `>` one or more. */
function natsMatches(pattern: string, subject: string): boolean {
  const want = pattern.split(".");
  const have = subject.split(".");
  for (let i = 0; i < want.length; i++) {
    if (want[i] === ">") return have.length > i;
    if (i >= have.length) return false;
    if (want[i] !== "*" && want[i] !== have[i]) return false;
  }
  return want.length === have.length;
}

const segment = fc.constantFrom(
  "code",
  "deployed",
  "a",
  "b",
  "*",
  "**",
  ">",
  "",
  "two words",
  "é",
  "~x",
);
const eventType = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("."));

describe("NATS subject design", () => {
  const subjects = new Subjects("team-a");

  it("maps event-type patterns to NATS wildcards that match exactly what matchesEventType matches", () => {
    fc.assert(
      fc.property(eventType, eventType, (pattern, type) => {
        expect(natsMatches(subjects.eventPattern(pattern), subjects.event(type))).toBe(
          matchesEventType(pattern, type),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("never lets a published event type act as a wildcard or hold whitespace", () => {
    fc.assert(
      fc.property(eventType, (type) => {
        const tokens = subjects.event(type).split(".");
        for (const token of tokens) {
          expect(token).toMatch(/^[A-Za-z0-9_~=-]+$/);
        }
      }),
    );
  });

  it("gives every agent fixed-length inbox, live and stream names inside its workspace", () => {
    const id = "a2a://alice/with:odd chars";
    expect(agentToken(id)).toMatch(/^[0-9a-f]{32}$/);
    expect(subjects.inbox(id)).toBe(`ocp.team-a.in.${agentToken(id)}`);
    expect(subjects.live(id)).toBe(`ocp.team-a.live.${agentToken(id)}`);
    expect(subjects.inboxStream(id)).toBe(`OCP_team-a_IN_${agentToken(id)}`);
    expect(subjects.broadcast).toBe("ocp.team-a.bcast");
    expect(() => new Subjects("two words")).toThrow(RangeError);
  });
});
