import { describe, expect, expectTypeOf, it } from "vitest";
import {
  generateIdentity,
  type MessageOf,
  type SignedMessage,
  signedMessage,
  verifyMessage,
  verifyMessageSync,
  verifyObject,
} from "../src/index.js";
import {
  type SignedRecord,
  signedRuntimeMessage,
  specFieldsSigningInput,
} from "../src/internal.js";
import { nativeEd25519 } from "../src/node/index.js";
import { ALL_BACKENDS } from "./support/backends.js";
import { ALICE, BOB, SAMPLE_PAYLOADS } from "./support/samples.js";

const alice = generateIdentity(ALICE);
const mallory = generateIdentity("a2a://mallory");

/** A JSON round trip: what a receiver parses. */
const received = (value: object): Record<string, unknown> => JSON.parse(JSON.stringify(value));

function table(): [string, Record<string, unknown>][] {
  const signed = received(
    signedMessage(alice, {
      type: "ocp.sync.accept",
      to: BOB,
      payload: SAMPLE_PAYLOADS["ocp.sync.accept"],
    }),
  );
  const { signature: _signature, ...unsigned } = signed;
  const specSigned = received({
    ...unsigned,
    signature: Buffer.from(
      nativeEd25519.sign(specFieldsSigningInput(unsigned), alice.secretKey),
    ).toString("base64"),
  });
  const byMallory = received(
    signedMessage(mallory, {
      type: "ocp.sync.accept",
      to: BOB,
      payload: { syncId: "s", accepted: true },
    }),
  );
  const expired = received(
    signedMessage(alice, {
      type: "ocp.sync.accept",
      to: BOB,
      payload: { syncId: "s", accepted: true },
      timestamp: "2001-01-01T00:00:00.000Z",
      ttl: 1,
    }),
  );
  return [
    ["genuine", signed],
    ["unsigned", unsigned],
    ["payload altered after signing", { ...signed, payload: { syncId: "other", accepted: true } }],
    ["ttl raised after signing", { ...signed, ttl: 86_400 }],
    ["extension field added after signing", { ...signed, "x-extra": true }],
    ["signature truncated", { ...signed, signature: String(signed["signature"]).slice(4) }],
    ["signature not a string", { ...signed, signature: 7 }],
    ["signed by another key under alice's name", { ...byMallory, from: ALICE }],
    ["from a sender with no key", byMallory],
    ["signed the §8.2 way", specSigned],
    ["expired (the signature check leaves freshness to the next stage)", expired],
    ["from not a string", { ...signed, from: 42 }],
  ];
}

const keyOf = (id: string) => (id === ALICE ? alice.publicKey : undefined);

const verdict = (r: Awaited<ReturnType<typeof verifyMessage>>) =>
  r.ok ? { ok: true } : { code: r.error.code, text: r.error.message, details: r.error.details };

describe("one signature check (§8.3), sync and async from the same code", () => {
  it("verifyMessage and verifyMessageSync give identical verdicts (code and text) on forged, altered, expired and wrong-key messages, with every backend", async () => {
    const codes = new Set<string>();
    for (const backend of ALL_BACKENDS) {
      for (const [name, message] of table()) {
        const sync = verdict(verifyMessageSync(message, keyOf, backend));
        const async = verdict(await verifyMessage(message, async (id) => keyOf(id), backend));
        expect(sync, name).toEqual(async);
        codes.add(sync.code ?? "ok");
      }
    }
    expect([...codes].sort()).toEqual([
      "ok",
      "signature_invalid",
      "signature_missing",
      "signature_scheme_mismatch",
      "unknown_sender",
    ]);
  });

  it("a key lookup that throws is unknown_sender, with the thrown error as cause, on both entries", async () => {
    const genuine = received(
      signedMessage(alice, {
        type: "ocp.sync.accept",
        to: BOB,
        payload: { syncId: "s", accepted: true },
      }),
    );
    const boom = new Error("directory down");
    const sync = verifyMessageSync(genuine, () => {
      throw boom;
    });
    const async = await verifyMessage(genuine, async () => {
      throw boom;
    });
    for (const result of [sync, async]) {
      expect(!result.ok && result.error.code).toBe("unknown_sender");
      expect(!result.ok && result.error.cause).toBe(boom);
    }
    expect(verdict(sync)).toEqual(verdict(async));
  });
});

describe("signedMessage: the one typed builder that signs", () => {
  it("builds, validates and signs a message from the signer's identity; the result is typed by its type", () => {
    const message = signedMessage(alice, {
      type: "ocp.sync.accept",
      to: BOB,
      payload: { syncId: "s", accepted: true },
    });
    expectTypeOf(message).toEqualTypeOf<SignedMessage<"ocp.sync.accept">>();
    expectTypeOf(message.payload).toEqualTypeOf<MessageOf<"ocp.sync.accept">["payload"]>();
    expect(message.from).toBe(ALICE);
    expect(message.payload.syncId).toBe("s");
    expect(verifyObject(received(message), alice.publicKey)).toBe(true);
  });

  it("refuses a draft that is not a valid message (invalid_message) and a short key (invalid_key)", () => {
    expect(() =>
      signedMessage(alice, {
        type: "ocp.sync.accept",
        to: "not a uri",
        payload: { syncId: "s", accepted: true },
      }),
    ).toThrow(expect.objectContaining({ code: "invalid_message" }));
    expect(() =>
      signedMessage(
        { id: ALICE, secretKey: new Uint8Array(16) },
        { type: "ocp.sync.accept", to: BOB, payload: { syncId: "s", accepted: true } },
      ),
    ).toThrow(expect.objectContaining({ code: "invalid_key" }));
  });

  it("with edit, signs the edited message (a suite's deliberate misbehaviour) and is typed as a plain record", () => {
    const edited = signedMessage(
      alice,
      { type: "ocp.sync.accept", to: BOB, payload: { syncId: "s", accepted: true } },
      {
        edit: (m) => {
          m["timestamp"] = "2001-01-01T00:00:00.000Z";
        },
      },
    );
    expectTypeOf(edited).toEqualTypeOf<SignedRecord>();
    expect(edited["timestamp"]).toBe("2001-01-01T00:00:00.000Z");
    expect(verifyMessageSync(received(edited), keyOf).ok).toBe(true);
  });

  it("a draft whose payload does not fit its type does not compile, and throws invalid_message if forced", () => {
    expect(() =>
      signedMessage(alice, {
        type: "ocp.sync.accept",
        to: BOB,
        // @ts-expect-error syncId is a string
        payload: { syncId: 1, accepted: true },
      }),
    ).toThrow(expect.objectContaining({ code: "invalid_message" }));
  });

  it("signedRuntimeMessage checks a draft whose type is known only at run time by that type's schema", () => {
    const type: string = "ocp.sync.accept";
    const signed = signedRuntimeMessage(alice, {
      type,
      to: BOB,
      payload: { syncId: "s", accepted: true },
    });
    expect(verifyMessageSync(received(signed), keyOf).ok).toBe(true);
    expect(() => signedRuntimeMessage(alice, { type, to: BOB, payload: { syncId: 1 } })).toThrow(
      expect.objectContaining({ code: "invalid_message" }),
    );
    expect(() =>
      signedRuntimeMessage(alice, { type: "ocp.no.such", to: BOB, payload: {} }),
    ).toThrow(expect.objectContaining({ code: "invalid_message" }));
  });
});
