import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import * as browser from "../src/browser.js";
import { buildMessage } from "../src/browser-messages.js";
import * as root from "../src/index.js";
import { schemaFor, signingInput } from "../src/internal.js";
import { AgentProfileSchema } from "../src/schemas.js";
import { agentUri, json, plainMessage, recipients } from "./support/arbitraries.js";
import { ALICE, BOB, SAMPLE_PAYLOADS } from "./support/samples.js";

// A bound per file for a few thousand schema passes, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

type Obj = Record<string, unknown>;
const RUNS = { numRuns: 400, seed: 7 };
const FIXED = { id: "msg-1", timestamp: "2026-10-13T10:25:00Z" };

/** The schema's verdict and value. */
function bySchema(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

/** What a builder gave: the message, or the code it threw. */
function built(build: () => object): { message: object } | { code: unknown } {
  try {
    return { message: build() };
  } catch (error) {
    return { code: (error as { code?: unknown }).code };
  }
}

/** A draft of any type, valid or broken by a few edits of its payload or envelope. */
const draft = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...root.KNOWN_MESSAGE_TYPES),
      fc.constantFrom("ocp.custom.build.done", "ocp.nope", "capability.other"),
    ),
    fc.oneof({ weight: 4, arbitrary: agentUri }, { weight: 1, arbitrary: fc.constant("alice") }),
    recipients,
    fc.array(fc.tuple(fc.constantFrom("", "payload."), fc.string({ maxLength: 10 }), json), {
      maxLength: 2,
    }),
    fc.option(fc.integer({ min: -1, max: 100_000 }), { nil: undefined }),
  )
  .map(([type, from, to, edits, ttl]) => {
    const sample = (SAMPLE_PAYLOADS as Record<string, unknown>)[type];
    const payload: Obj = structuredClone((sample ?? { anything: 1 }) as Obj);
    const init: Obj = { ...FIXED, type, from, to, payload };
    if (ttl !== undefined) init["ttl"] = ttl;
    for (const [where, key, member] of edits) {
      if (key === "__proto__") continue; // assignment would set the prototype, not a member
      if (where === "") init[key] = member;
      else payload[key] = member;
    }
    return init;
  });

describe("@ocp/a2a-ocp-messaging/browser builds the root entry's messages without zod", () => {
  it("property: createMessage builds exactly what the root's builds (deep-equal, same signed bytes) and refuses exactly what it refuses", () => {
    let builtCount = 0;
    let refused = 0;
    fc.assert(
      fc.property(draft, (init) => {
        const small = built(() => buildMessage(init as never));
        const full = built(() => root.createMessage(init as never));
        expect(small).toEqual(full);
        if ("message" in small && "message" in full) {
          builtCount += 1;
          expect(Object.keys(small.message)).toEqual(Object.keys(full.message));
          // Member order inside a payload differs only where an index-like name keeps the
          // builders from sorting (the root's is the schema's, ours the caller's); JCS, and so
          // the signature, does not depend on it.
          expect(signingInput(small.message)).toEqual(signingInput(full.message));
        } else refused += 1;
      }),
      RUNS,
    );
    expect(builtCount).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  });

  it("builds and signs a message of every known type to the root's bytes", () => {
    const alice = browser.identityFromSecretKey(ALICE, new Uint8Array(32).fill(7));
    for (const type of root.KNOWN_MESSAGE_TYPES) {
      const init = { ...FIXED, type, to: BOB, payload: SAMPLE_PAYLOADS[type] as never };
      const small = browser.signedMessage(alice, init);
      const full = root.signedMessage(alice, init);
      expect(JSON.stringify(small), type).toBe(JSON.stringify(full));
    }
  });

  it("copies the payload it is given: a later change by the caller does not reach the message", () => {
    const payload = { proposalId: "p-1", vote: "approve" as const, votedBy: ALICE };
    const message = browser.createMessage({
      type: "ocp.consensus.vote",
      from: ALICE,
      to: BOB,
      payload,
    });
    payload.vote = "reject" as never;
    expect(message.payload.vote).toBe("approve");
  });

  it("refuses to build what only a reshaping schema would accept, with invalid_message naming the type", () => {
    const withProto = JSON.parse(
      '{"proposalId":"p","vote":"approve","votedBy":"a2a://a","__proto__":{"x":1}}',
    );
    const init = { type: "ocp.consensus.vote" as const, from: ALICE, to: BOB, payload: withProto };
    expect(() => browser.createMessage(init)).toThrowError(
      expect.objectContaining({
        code: "invalid_message",
        message: expect.stringContaining("ocp.consensus.vote"),
      }),
    );
    const withFunction = { ...SAMPLE_PAYLOADS["ocp.consensus.vote"], note: () => 1 };
    expect(() =>
      browser.createMessage({
        type: "ocp.consensus.vote",
        from: ALICE,
        to: BOB,
        payload: withFunction,
      }),
    ).toThrowError(expect.objectContaining({ code: "invalid_message" }));
  });
});

describe("@ocp/a2a-ocp-messaging/browser checks received messages and profiles", () => {
  it("property: decodeMessage accepts a value if and only if the schema accepts it unchanged, and never throws", () => {
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
          if (typeof holder === "object" && holder !== null && key !== "__proto__")
            holder[key] = member;
        }
        return value;
      });
    const input = fc.oneof(
      plainMessage.map((m) => JSON.parse(JSON.stringify(m)) as unknown),
      mutated,
      json,
      fc.anything(),
    );
    let accepted = 0;
    fc.assert(
      fc.property(input, (value) => {
        const small = browser.decodeMessage(value);
        const reference = bySchema(schemaFor(value), value);
        const unchanged = reference.ok && JSON.stringify(reference.value) === JSON.stringify(value);
        const full = root.decodeMessage(value);
        if (small.ok) {
          accepted += 1;
          expect(small.value).toBe(value);
          expect(reference).toEqual({ ok: true, value });
        } else if (small.error.code === "incompatible_version") {
          expect(full.ok ? "ok" : full.error.code).toBe("incompatible_version");
        } else {
          expect(small.error.code).toBe("invalid_message");
          // Refused: the schema refuses it, or would give back something else (encrypted and
          // compressed forms are the root's).
          const encoded =
            typeof value === "object" &&
            value !== null &&
            ("encrypted" in value || "compression" in value);
          if (!encoded) expect(unchanged).toBe(false);
        }
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it("refuses an encrypted message, an unknown type and another major version, each with its code and reason", () => {
    const message = browser.createMessage({
      ...FIXED,
      type: "ocp.consensus.vote",
      from: ALICE,
      to: BOB,
      payload: SAMPLE_PAYLOADS["ocp.consensus.vote"],
    });
    const encrypted = {
      ...message,
      encrypted: true,
      payload: { ciphertext: "AAAA", algorithm: "AES-256-GCM", recipientKeys: [] },
    };
    const refusedEncrypted = browser.decodeMessage(encrypted);
    expect(refusedEncrypted.ok ? "ok" : refusedEncrypted.error.message).toMatch(
      /encrypted or compressed/,
    );
    const unknown = browser.decodeMessage({ ...message, type: "ocp.nope" });
    expect(unknown.ok ? "ok" : unknown.error.message).toMatch(/neither a known message type/);
    const future = browser.decodeMessage({ ...message, version: "2.0.0" });
    expect(future.ok ? "ok" : future.error.code).toBe("incompatible_version");
  });

  it("verifyAgentProfile agrees with the root's on genuine, tampered, half-keyed and forged profiles", () => {
    const alice = browser.generateIdentity(ALICE);
    const mallory = browser.generateIdentity("a2a://mallory");
    const genuine = browser.createAgentProfile(alice, { name: "Alice" });
    const forged = { ...browser.createAgentProfile(mallory), id: ALICE };
    const resigned = browser.signObject(
      { ...genuine, publicKey: genuine.publicKey },
      mallory.secretKey,
    );
    const halfKeyed = browser.signObject(
      { ...genuine, encryptionKey: genuine.publicKey },
      alice.secretKey,
    );
    const cases = {
      genuine,
      tampered: { ...genuine, name: "Eve" },
      forged,
      resigned,
      halfKeyed,
      notObject: "x",
    };
    const verdicts = Object.fromEntries(
      Object.entries(cases).map(([name, value]) => {
        const small = browser.verifyAgentProfile(value);
        const full = root.verifyAgentProfile(value);
        expect(small.ok, name).toBe(full.ok);
        return [name, small.ok ? "ok" : small.error.code];
      }),
    );
    expect(verdicts).toEqual({
      genuine: "ok",
      tampered: "invalid_profile",
      forged: "invalid_profile",
      resigned: "invalid_profile",
      halfKeyed: "invalid_profile",
      notObject: "invalid_profile",
    });
    expect(bySchema(AgentProfileSchema, halfKeyed).ok).toBe(false);
    expect(() => browser.keyLookupFromProfiles([genuine, forged])).toThrowError(
      expect.objectContaining({ code: "invalid_profile" }),
    );
  });

  it("verifies a signed message and refuses a forged one: tampered, signed by another key, unsigned, unknown sender", async () => {
    const alice = browser.generateIdentity(ALICE);
    const mallory = browser.generateIdentity("a2a://mallory");
    const lookupKey = browser.keyLookupFromProfiles([browser.createAgentProfile(alice)]);
    const draft = {
      type: "ocp.consensus.vote" as const,
      to: BOB,
      payload: SAMPLE_PAYLOADS["ocp.consensus.vote"],
    };
    const signed = browser.signedMessage(alice, draft);
    const outcome = (result: { ok: boolean; error?: { code: string } }) =>
      result.ok ? "ok" : result.error!.code;
    const { signature: _, ...unsigned } = signed;
    expect({
      genuine: outcome(await browser.verifyMessage(signed, lookupKey)),
      tampered: outcome(
        browser.verifyMessageSync(
          { ...signed, payload: { ...signed.payload, vote: "reject" } },
          lookupKey as never,
        ),
      ),
      otherKey: outcome(
        await browser.verifyMessage(browser.signObject(unsigned, mallory.secretKey), lookupKey),
      ),
      unsigned: outcome(await browser.verifyMessage(unsigned, lookupKey)),
      stranger: outcome(
        await browser.verifyMessage(browser.signedMessage(mallory, draft), lookupKey),
      ),
    }).toEqual({
      genuine: "ok",
      tampered: "signature_invalid",
      otherKey: "signature_invalid",
      unsigned: "signature_missing",
      stranger: "unknown_sender",
    });
    expect(browser.verifyObject(signed, alice.publicKey)).toBe(
      root.verifyObject(signed, alice.publicKey),
    );
  });
});
