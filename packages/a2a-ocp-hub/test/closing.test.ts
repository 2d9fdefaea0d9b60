/**
 * A hub that began closing refuses what still arrives with `hub_closing`
 * (closing.ts): a message that reaches it while its connections close with
 * 1001 is neither committed nor routed, so its sender can resend it to the
 * next hub and have it accepted (not refused `replay_detected` for a message
 * it never saw acknowledged). Real hub, real SQLite file, real sockets.
 */
import { signedMessage } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import type { HubEvent } from "../src/index.js";
import { hubPerTest, identity, until } from "./support.js";

const t = hubPerTest();

describe("a closing hub refuses hub_closing", () => {
  it("a message that arrives after close() began is refused hub_closing, not committed, and accepted when resent to the restarted hub", async () => {
    const alice = identity("alice");
    const bob = identity("bob");
    (await t.raw(bob)).close(); // bob is known to the hub: a direct message to him is durable.
    const sender = await t.raw(alice);
    const hub = t.hub;
    const events: HubEvent[] = [];
    hub.observe((event) => events.push(event));
    const late = JSON.stringify(
      signedMessage(alice, { type: "ocp.custom.note", to: bob.id, payload: { n: 1 } }),
    );
    const id = (JSON.parse(late) as { id: string }).id;

    // Written before close() is called: it reaches the hub while its connections are closing.
    sender.send(late);
    await hub.close();

    expect(events.filter((event) => event.kind === "message.accepted")).toEqual([]);
    expect(events.filter((event) => event.kind === "message.refused")).toMatchObject([
      { code: "hub_closing", id, from: alice.id },
    ]);
    expect(hub.stats()).toMatchObject({ committed: 0, rejectedByCode: { hub_closing: 1 } });

    // The sender resends the same bytes to the restarted hub: accepted and delivered once.
    await t.restart({});
    const again = await t.raw(alice);
    const receiver = await t.raw(bob);
    again.send(late);
    const answer = () => again.controls().find((c) => c.payload["id"] === id);
    await until(() => answer() !== undefined, "the restarted hub's answer");
    expect(answer()!.type).toBe("ocp.hub.ack");
    await until(() => receiver.delivered().includes(late), "bob's delivery");
    expect(receiver.delivered().filter((text) => text === late)).toHaveLength(1);
  }, 30_000);

  it("a hub that is not closing accepts the same message (the refusal is the closing's, not the message's)", async () => {
    const alice = identity("alice");
    const bob = identity("bob");
    const receiver = await t.raw(bob);
    const sender = await t.raw(alice);
    const text = JSON.stringify(
      signedMessage(alice, { type: "ocp.custom.note", to: bob.id, payload: { n: 1 } }),
    );
    const id = (JSON.parse(text) as { id: string }).id;
    sender.send(text);
    const answer = () => sender.controls().find((c) => c.payload["id"] === id);
    await until(() => answer() !== undefined, "the hub's answer");
    expect(answer()!.type).toBe("ocp.hub.ack");
    await until(() => receiver.delivered().includes(text), "bob's delivery");
    expect(t.hub.stats().rejectedByCode).toEqual({});
  }, 30_000);
});
