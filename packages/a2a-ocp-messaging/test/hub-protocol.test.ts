import { describe, expect, it } from "vitest";
import { encodeHubControl, HUB_TYPES } from "../src/internal.js";
import { HubAckSchema, HubControlSchema } from "../src/schemas.js";

const ack = (payload: Record<string, unknown>) =>
  JSON.parse(encodeHubControl(HUB_TYPES.ACK, payload)) as unknown;

describe("ocp.hub.ack", () => {
  it("carries when the message expires, as an ISO 8601 timestamp", () => {
    const parsed = HubControlSchema.parse(
      ack({ id: "m1", durable: true, recipients: 2, expiresAt: "2030-01-02T03:04:05.678Z" }),
    );
    expect(parsed.type).toBe(HUB_TYPES.ACK);
    expect(parsed.payload["expiresAt"]).toBe("2030-01-02T03:04:05.678Z");
  });

  it("is still an ack without expiresAt (hubs before it), and a malformed one reads as absent", () => {
    expect(HubAckSchema.parse(ack({ id: "m1", durable: false, recipients: 0 })).payload).toEqual({
      id: "m1",
      durable: false,
      recipients: 0,
    });
    for (const expiresAt of [1_900_000_000_000, "tomorrow", null]) {
      const parsed = HubAckSchema.safeParse(
        ack({ id: "m1", durable: true, recipients: 1, expiresAt }),
      );
      expect(parsed.success).toBe(true);
      expect(parsed.data?.payload.expiresAt).toBeUndefined();
    }
  });
});
