import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { MemoryNetwork } from "../src/link.js";
import { replyAddress } from "../src/reply.js";

describe("findAgents without a hub", () => {
  it("rejects with discovery_unavailable on a link with no directory", async () => {
    // A MemoryNetwork link given no profile has no directory.
    const identity = generateIdentity("a2a://solo");
    const link = new MemoryNetwork().link(identity.id, identity.publicKey);
    const solo: OCPAgent | undefined = new OCPAgent({ identity, link }).start();
    try {
      await expect(solo?.findAgents({})).rejects.toMatchObject({ code: "discovery_unavailable" });
    } finally {
      await solo?.close();
    }
  });
});

describe("replyAddress (§4.1 reply_to)", () => {
  it("answers at reply_to when it is an agent URI, else at the sender", () => {
    const from = "a2a://asker";
    expect(replyAddress({ from, reply_to: "a2a://inbox" })).toBe("a2a://inbox");
    expect(replyAddress({ from })).toBe(from);
    for (const reply_to of ["", "https://example.com", "broadcast", 42, null, "a2a://"]) {
      expect(replyAddress({ from, reply_to })).toBe(from);
    }
  });
});
