/**
 * Issue 16: an agent listening for peers keeps the same §3 audit log as a
 * hub: over a real socket, a peer's accepted message, its tampered and
 * replayed ones (refused, with the reasons), and what the listener delivered.
 */
import { HubClient } from "@ocp/a2a-ocp-client";
import {
  type AgentIdentity,
  createMessage,
  generateIdentity,
  MemoryAuditLog,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import { listenForPeers } from "../src/peer.js";
import { closersAfterEach, until } from "./support.js";

const cleanup = closersAfterEach();

/** An idle beacon from `from` to `to`, signed by `from`. */
const idleBeacon = (from: AgentIdentity, to: AgentIdentity) =>
  signObject(
    createMessage({
      type: "ocp.awareness.beacon",
      from: from.id,
      to: to.id,
      payload: { status: "idle", availability: "available" },
    }),
    from.secretKey,
  ) as Record<string, unknown>;

describe("listenForPeers: the audit log", () => {
  it("records accepted, refused (tampered, replayed) and delivered, with reasons", async () => {
    const a = generateIdentity("a2a://audit-listener");
    const b = generateIdentity("a2a://audit-peer");
    const audit = new MemoryAuditLog();
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
      audit,
    });
    cleanup.push(() => listener.close());
    const client = await HubClient.connect({ url: listener.url, identity: b, reconnect: false });
    cleanup.push(() => client.close());
    const received: string[] = [];
    client.on("message", (m) => received.push(m.message.id));

    const beacon = idleBeacon(b, a);
    await client.send(beacon as never);
    // Replayed: the same signed message again.
    await expect(client.send(beacon as never)).rejects.toMatchObject({ code: "replay_detected" });
    // Tampered: a field changed after signing.
    const tampered = idleBeacon(b, a);
    tampered["ttl"] = 42;
    await expect(client.send(tampered as never)).rejects.toMatchObject({
      code: "signature_invalid",
    });
    // The listener sends the peer a message: delivered.
    const out = idleBeacon(a, b);
    await listener.link.send(out as never);
    await until(() => received.length === 1, "the listener's message");

    const entries = await audit.query({ agent: b.id });
    expect(entries.map((e) => [e.event, e.id, e.code])).toEqual([
      ["accepted", beacon["id"], undefined],
      ["refused", beacon["id"], "replay_detected"],
      ["refused", tampered["id"], "signature_invalid"],
      ["delivered", out["id"], undefined],
    ]);
    expect(entries[1]).toMatchObject({ from: b.id, to: [a.id], type: "ocp.awareness.beacon" });
    expect(entries[1]!.reason).toContain("already accepted");
    expect(entries[3]).toMatchObject({ from: a.id, to: [b.id] });
  }, 30_000);
});
