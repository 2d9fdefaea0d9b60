/**
 * Issue 40: the specification's own example messages, ids as printed
 * (`msg-abc123`, `node-789`), are accepted by a real hub over real sockets
 * once they are signed by their sender and dated now (a 2025 timestamp is
 * stale by §4.1's freshness rule, which is not what these tests are about).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateIdentity, signObject } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import { hubPerTest, until } from "./support.js";

const verbatimDir = fileURLToPath(
  new URL("../../../examples/a2a-ocp/spec-verbatim", import.meta.url),
);
const examples = readdirSync(verbatimDir)
  .filter((file) => file.endsWith(".json") && !file.startsWith("capability"))
  .sort();

const hubs = hubPerTest();

async function agent(id: string) {
  const identity = generateIdentity(id);
  return { identity, raw: await hubs.raw(identity) };
}

describe("the specification's example messages at the hub", () => {
  it.each(examples)(
    "%s is accepted with its printed id and reaches its recipient",
    async (file) => {
      const example = JSON.parse(readFileSync(join(verbatimDir, file), "utf8"));
      expect(example.id).toMatch(/^msg-/);
      const sender = await agent(example.from);
      const recipient =
        example.to === "broadcast" ? await agent("a2a://spec-reader") : await agent(example.to);
      const { signature: _none, ...unsigned } = { ...example, timestamp: new Date().toISOString() };
      const wire = JSON.stringify(signObject(unsigned, sender.identity.secretKey));
      sender.raw.send(wire);
      await until(
        () => sender.raw.controls().some((c) => c.payload["id"] === example.id),
        `the hub's answer to ${example.id}`,
      );
      const answer = sender.raw.controls().find((c) => c.payload["id"] === example.id);
      expect(answer?.type, JSON.stringify(answer?.payload)).toBe("ocp.hub.ack");
      if (example.type === "ocp.event.publish") return; // Goes to subscribers only (§5.5).
      await until(
        () => recipient.raw.delivered().some((text) => JSON.parse(text).id === example.id),
        `${example.id} delivered`,
      );
    },
  );
});
