import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { envelopeFields, plainFields } from "../src/envelope.js";
import { FAST_MESSAGE_TYPES, fastMessageChecks, isPlainFastMessage } from "../src/fast-decode.js";
import { decodeMessage, PROTOCOL_VERSION } from "../src/index.js";
import { schemaFor } from "../src/internal.js";
import { KnownMessageSchema } from "../src/messages.js";
import { AwarenessBeaconPayloadSchema } from "../src/payloads/awareness.js";
import { json, plainMessage } from "./support/arbitraries.js";

// A bound per file for a few thousand schema passes, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

type Obj = Record<string, unknown>;
const RUNS = { numRuns: 400, seed: 42 };

/** The schema's verdict and value: what the fast path must agree with. */
function bySchema(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

/** Whether the fast check's `true` is the schema's: accepted, and given back deep-equal. */
function agrees(check: (value: unknown) => boolean, schema: z.ZodType, value: unknown): boolean {
  const before = JSON.stringify(value);
  const fast = check(value);
  expect(JSON.stringify(value)).toBe(before); // a check never writes
  if (fast) expect(bySchema(schema, value)).toEqual({ ok: true, value });
  return fast;
}

/** A message schema with one beacon variant whose payload schema has a new member `mood`. */
const MOODS = ["calm", "busy"] as const;
const ExtendedBeacon = AwarenessBeaconPayloadSchema.extend({ mood: z.enum(MOODS) });
const ExtendedSchema = z.discriminatedUnion("type", [
  z.looseObject({
    ...envelopeFields,
    ...plainFields,
    type: z.literal("ocp.awareness.beacon"),
    payload: ExtendedBeacon,
  }),
]);

const beaconMessage = fc.record({
  mood: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<unknown>("calm", "busy") },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, "angry", 3, null, "") },
  ),
  status: fc.constantFrom("working", "idle", "asleep"),
  availability: fc.constantFrom("available", "busy"),
  from: fc.constantFrom("a2a://alice", "not a uri"),
});

function beacon({ mood, status, availability, from }: Obj): Obj {
  const payload: Obj = { status, availability };
  if (mood !== undefined) payload["mood"] = mood;
  return {
    protocol: "a2a+ocp",
    version: PROTOCOL_VERSION,
    id: "m-1",
    from,
    to: "broadcast",
    timestamp: "2026-10-13T10:25:00Z",
    type: "ocp.awareness.beacon",
    payload,
  };
}

describe("the message fast path is compiled from the message schemas", () => {
  it("a member added to a payload schema reaches the fast check: it takes exactly the values the extended schema gives back as they are", () => {
    const check = fastMessageChecks(ExtendedSchema, ["ocp.awareness.beacon"]).get(
      "ocp.awareness.beacon",
    );
    expect(check).toBeDefined();
    let taken = 0;
    let refused = 0;
    fc.assert(
      fc.property(beaconMessage, (fields) => {
        const value = beacon(fields);
        const fast = agrees(check!, ExtendedSchema, value);
        const valid = bySchema(ExtendedSchema, value).ok;
        // Complete on these values: every message the extended schema accepts is already in
        // its output form, so the fast path takes it (a check from a list that does not know
        // `mood` refuses none of the bad moods, a loose payload keeping any member).
        expect(fast).toBe(valid);
        if (fast) taken += 1;
        else refused += 1;
      }),
      RUNS,
    );
    expect(taken).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
    // The same message under the unextended schema: `mood` is an extension member, kept as it is.
    const odd = beacon({ mood: 3, status: "idle", availability: "busy", from: "a2a://alice" });
    expect(isPlainFastMessage(odd)).toBe(true);
    expect(check!(odd)).toBe(false);
    expect(ExtendedSchema.safeParse(odd).success).toBe(false);
  });

  it("compiles a check for every fast-path type from KnownMessageSchema", () => {
    const checks = fastMessageChecks(KnownMessageSchema, FAST_MESSAGE_TYPES);
    expect([...checks.keys()].sort()).toEqual([...FAST_MESSAGE_TYPES].sort());
  });

  it("agrees with the schema on well-formed messages of every type, mutated ones and random JSON", () => {
    const mutated = fc
      .tuple(
        plainMessage,
        fc.array(fc.tuple(fc.constantFrom("", "payload."), fc.string({ maxLength: 12 }), json), {
          maxLength: 3,
        }),
      )
      .map(([message, edits]) => {
        const value = JSON.parse(JSON.stringify(message)) as Obj;
        for (const [where, key, member] of edits) {
          const holder = where === "" ? value : (value["payload"] as Obj);
          if (typeof holder === "object" && holder !== null) holder[key] = member;
        }
        return value;
      });
    const input = fc.oneof(
      plainMessage.map((m) => JSON.parse(JSON.stringify(m)) as unknown),
      mutated,
      json,
    );
    let fastTaken = 0;
    fc.assert(
      fc.property(input, (value) => {
        if (isPlainFastMessage(value)) {
          fastTaken += 1;
          expect(bySchema(schemaFor(value), value)).toEqual({ ok: true, value });
        }
        const decoded = decodeMessage(value);
        const reference = bySchema(schemaFor(value), value);
        if (!reference.ok)
          expect(decoded.ok ? "decoded" : decoded.error.code).toBe("invalid_message");
        else if (decoded.ok) expect(decoded.value).toEqual(reference.value);
        else expect(decoded.error.code).toBe("incompatible_version");
      }),
      RUNS,
    );
    expect(fastTaken).toBeGreaterThan(20);
  });
});
