import { spawnSync } from "node:child_process";
import { createPrivateKey, sign } from "node:crypto";
import { generateIdentity, verifyMessage } from "@ocp/a2a-ocp-messaging";
import { defaultEd25519, signingInput } from "@ocp/a2a-ocp-messaging/internal";
import { describe, expect, it } from "vitest";
import { MemoryNetwork, OCPAgent } from "../src/index.js";

describe("Ed25519 in the agent runtime: native wherever Node has it, chosen once", () => {
  it("the package's default backend is the native one in this Node (test runner and a plain node process)", () => {
    expect(defaultEd25519().name).toBe("native");
    const child = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'import { defaultEd25519 } from "@ocp/a2a-ocp-messaging/internal"; console.log(defaultEd25519().name);',
      ],
      { cwd: new URL("..", import.meta.url), encoding: "utf8" },
    );
    expect(child.stdout.trim()).toBe("native");
  });

  it("what an agent sends carries the signature node:crypto makes over the canonical bytes, and verifies", async () => {
    const net = new MemoryNetwork();
    const alice = generateIdentity("a2a://alice");
    const bob = generateIdentity("a2a://bob");
    const a = new OCPAgent({ identity: alice, link: net.link(alice.id, alice.publicKey) }).start();
    const received: Array<Record<string, unknown>> = [];
    net.link(bob.id, bob.publicKey).onMessage((m) => received.push(m as Record<string, unknown>));
    await a.beacon({ status: "working", availability: "available" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toHaveLength(1);
    const message = received[0]!;
    // Ed25519 is deterministic: node:crypto's signature of the same bytes is the one on the wire.
    const PKCS8 = Buffer.from("302e020100300506032b657004220420", "hex");
    const key = createPrivateKey({
      key: Buffer.concat([PKCS8, alice.secretKey]),
      format: "der",
      type: "pkcs8",
    });
    expect(message["signature"]).toBe(sign(null, signingInput(message), key).toString("base64"));
    expect((await verifyMessage(message, net.lookupKey)).ok).toBe(true);
    await a.close();
  });
});
