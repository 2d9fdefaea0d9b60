/**
 * §12.3 rate limits with the specification's numbers, size limits, and the
 * §7 features a hub may offer: capability negotiation and discovery.
 */
import { verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { CapabilityConfirmPayloadSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { type Check, type CheckContext, failed, passed, skipped } from "../context.js";
import {
  OVERSIZED_MESSAGE_BYTES,
  SPEC_BROADCASTS_PER_MINUTE,
  SPEC_COLLECTIVE_QUERIES_PER_MINUTE,
  SPEC_MESSAGES_PER_MINUTE,
} from "../limits.js";
import { attemptRegistration, honestAnnounce } from "../raw.js";

/**
 * Sends up to `limit` + 10% + 5 messages at once; returns the 1-based index of
 * the first refused with `rate_limited` (refill during the burst allows a few more).
 */
async function firstLimited(
  context: CheckContext,
  limit: number,
  build: (
    from: ReturnType<CheckContext["identity"]>,
    to: string,
    n: number,
  ) => { id: string; text: string },
): Promise<{ first: number | undefined; sent: number }> {
  const sender = await context.join("burst");
  const sink = await context.join("sink");
  const count = Math.ceil(limit * 1.1) + 5;
  const ids: string[] = [];
  for (let n = 1; n <= count; n += 1) {
    const message = build(sender.id, sink.id.id, n);
    ids.push(message.id);
    sender.peer.send(message.text);
  }
  const answers = await Promise.all(
    ids.map((id) => sender.peer.answerTo(id, context.answerTimeoutMs * 3)),
  );
  const index = answers.findIndex(
    (a) => a.type === "ocp.hub.reject" && a.payload["code"] === "rate_limited",
  );
  return { first: index < 0 ? undefined : index + 1, sent: count };
}

export const rateLimits: Check = {
  spec: {
    name: "rate-limits",
    sections: ["§12.3"],
    advisory: true,
    summary: "per agent: 100 messages, 10 broadcasts, 5 collective queries a minute",
  },
  async run(context) {
    const kinds = [
      [
        "messages",
        SPEC_MESSAGES_PER_MINUTE,
        (from, to, n) => context.signed(from, { type: "ocp.custom.n", to, payload: { n } }),
      ],
      [
        "broadcasts",
        SPEC_BROADCASTS_PER_MINUTE,
        (from, _to, n) =>
          context.signed(from, { type: "ocp.custom.n", to: "broadcast", payload: { n } }),
      ],
      [
        "collective queries",
        SPEC_COLLECTIVE_QUERIES_PER_MINUTE,
        (from, _to, n) =>
          context.signed(from, {
            type: "ocp.collective.query",
            to: "broadcast",
            payload: { queryId: `q${n}`, query: "ocp-test rate probe", timeout: 1000 },
          }),
      ],
    ] as const satisfies ReadonlyArray<
      readonly [string, number, Parameters<typeof firstLimited>[2]]
    >;
    const problems: string[] = [];
    const notes: string[] = [];
    for (const [name, limit, build] of kinds) {
      const { first, sent } = await firstLimited(context, limit, build);
      if (first === undefined)
        problems.push(`${name}: none of ${sent} refused (limit ${limit}/min)`);
      else if (first <= limit)
        problems.push(`${name}: refused already at #${first} (limit ${limit}/min)`);
      else notes.push(`${name}: first refused at #${first} (limit ${limit}/min)`);
    }
    return problems.length > 0 ? failed(problems.join("; ")) : passed(notes.join("; "));
  },
};

export const sizeLimits: Check = {
  spec: {
    name: "size-limits",
    sections: ["§6.1", "§12.4"],
    advisory: true,
    summary: `a ${OVERSIZED_MESSAGE_BYTES / 1024 / 1024} MiB message is refused and the hub keeps serving`,
  },
  async run(context) {
    const alice = await context.join("alice");
    const bob = await context.join("bob");
    const message = context.signed(alice.id, {
      type: "ocp.custom.blob",
      to: bob.id.id,
      payload: { blob: "x".repeat(OVERSIZED_MESSAGE_BYTES) },
    });
    alice.peer.send(message.text);
    const answer = await alice.peer
      .waitFor(
        () =>
          alice.peer.controls().find((c) => c.type === "ocp.hub.reject") ??
          alice.peer.controls().find((c) => c.payload["id"] === message.id) ??
          (alice.peer.closed === undefined ? undefined : { type: "closed", payload: {} }),
        "refusal of the oversized message",
        context.answerTimeoutMs,
      )
      .catch(() => undefined);
    if (answer === undefined) return failed(`no answer to a ${message.text.length}-byte message`);
    if (answer.type === "ocp.hub.ack")
      return failed(`a ${message.text.length}-byte message was accepted`);
    const how =
      answer.type === "closed"
        ? `close ${alice.peer.closed?.code}`
        : `reject ${String(answer.payload["code"])}`;
    const after = await context.join("after").catch((error: Error) => error);
    if (after instanceof Error) return failed(`refused (${how}), but then: ${after.message}`);
    return passed(`a ${message.text.length}-byte message: ${how}; the hub still registers agents`);
  },
};

export const capabilityNegotiation: Check = {
  spec: {
    name: "capability-negotiation",
    sections: ["§7.2"],
    advisory: true,
    summary: "the hub confirms the features it supports at connection (capability.confirm)",
  },
  async run(context) {
    const id = context.identity("caps");
    const attempt = await attemptRegistration(
      context.url,
      honestAnnounce(id),
      context.answerTimeoutMs,
    );
    const peer = context.track(attempt.peer);
    if (attempt.outcome !== "registered") return failed(`not registered: ${attempt.detail}`);
    const offered = peer.control("capability.confirm")?.payload ?? attempt.payload;
    if (offered["supportedFeatures"] === undefined) {
      return skipped(
        "the target offers no capability negotiation at connection (no capability.confirm, no supportedFeatures when registered)",
      );
    }
    const parsed = CapabilityConfirmPayloadSchema.safeParse(offered);
    return parsed.success
      ? passed(
          `supported features: ${parsed.data.supportedFeatures.join(", ") || "(none)"}, version ${parsed.data.version}`,
        )
      : failed(`malformed confirmation: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  },
};

export const discovery: Check = {
  spec: {
    name: "discovery",
    sections: ["§7.3", "§8.1"],
    advisory: true,
    summary: "the hub answers who an agent is: its signed profile, verifiable",
  },
  async run(context) {
    const asker = await context.join("asker");
    const known = await context.join("known");
    const before = asker.peer.controls().length;
    asker.peer.send(
      JSON.stringify({
        protocol: "a2a+ocp",
        type: "ocp.hub.lookup",
        payload: { agentId: known.id.id },
      }),
    );
    const answer = await asker.peer
      .waitFor(
        () => asker.peer.controls().slice(before)[0],
        "lookup answer",
        context.answerTimeoutMs,
      )
      .catch(() => undefined);
    if (answer === undefined || answer.type === "ocp.hub.reject") {
      return skipped(
        `the target offers no discovery over the wire (ocp.hub.lookup: ${answer === undefined ? "no answer" : String(answer.payload["code"])})`,
      );
    }
    const verified = verifyAgentProfile(answer.payload["profile"], nativeEd25519);
    if (!verified.ok)
      return failed(`the profile of ${known.id.id} does not verify: ${verified.error.message}`);
    if (
      verified.value.id !== known.id.id ||
      verified.value.publicKey !== Buffer.from(known.id.publicKey).toString("base64")
    ) {
      return failed(
        `the lookup of ${known.id.id} returned the profile of ${verified.value.id} or another key`,
      );
    }
    return passed(`ocp.hub.lookup returned the self-signed profile of ${known.id.id}`);
  },
};
