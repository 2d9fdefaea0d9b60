/**
 * The hub checks signatures through the message layer's §8.3 check, the same
 * code the agent's `verifyMessage` runs: its refusals carry the very code,
 * text and details `verifyMessage` gives for the same message.
 */
import { readFileSync } from "node:fs";
import type { HubClient } from "@ocp/a2a-ocp-client";
import {
  decodeMessage,
  signedMessage,
  verifyMessage,
  type WireMessage,
} from "@ocp/a2a-ocp-messaging";
import { specFieldsSigningInput } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OCPHub } from "../src/index.js";
import { client, identity, startHub, tempDir } from "./support.js";

let dir: { dir: string; cleanup: () => void };
let hub: OCPHub;
const clients: HubClient[] = [];

beforeEach(async () => {
  dir = tempDir();
  hub = await startHub(dir.dir);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await hub.close();
  dir.cleanup();
});

function wire(value: object): WireMessage {
  const decoded = decodeMessage(JSON.parse(JSON.stringify(value)));
  if (!decoded.ok) throw decoded.error;
  return decoded.value;
}

describe("one signature check for hub and agent (§8.3)", () => {
  it("the hub refuses forged messages with exactly the code, text and details verifyMessage gives", async () => {
    const alice = identity("alice");
    const bob = identity("bob");
    const joined = await client(hub.url, alice);
    clients.push(joined.client, (await client(hub.url, bob)).client);
    const draft = { type: "ocp.custom.note", to: bob.id, payload: { n: 1 } } as const;
    const genuine = signedMessage(alice, draft);
    const { signature: _signature, ...unsigned } = signedMessage(alice, draft);
    const specSigned = {
      ...unsigned,
      signature: Buffer.from(
        nativeEd25519.sign(specFieldsSigningInput(unsigned), alice.secretKey),
      ).toString("base64"),
    };
    const byMallory = { ...signedMessage(identity("mallory"), draft), from: alice.id };
    const forged = [
      { ...genuine, payload: { n: 2 } },
      { ...genuine, ttl: 86_400 },
      specSigned,
      byMallory,
    ];
    const keyOf = (id: string) => (id === alice.id ? alice.publicKey : undefined);
    for (const message of forged) {
      const refused = await joined.client.send(wire(message)).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string; details: unknown },
      );
      const verdict = await verifyMessage(JSON.parse(JSON.stringify(message)), keyOf);
      expect(verdict.ok).toBe(false);
      if (verdict.ok) continue;
      expect(refused).toMatchObject({
        code: verdict.error.code,
        message: verdict.error.message,
        details: verdict.error.details,
      });
    }
  }, 30_000);

  it("the hub's inbound check calls the shared verifyMessageSync and no Ed25519 primitive of its own", () => {
    const source = readFileSync(new URL("../src/check.ts", import.meta.url), "utf8");
    expect(source).toContain("verifyMessageSync(");
    for (const primitive of ["verifyObject", "signedWithSpecFields", "schemeMismatchMessage"]) {
      expect(source).not.toContain(primitive);
    }
  });
});
