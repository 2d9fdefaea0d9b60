/**
 * Who may (docs/a2a-ocp-wire.md, "Authority"): authorship of knowledge (a
 * node or edge claiming another agent's `createdBy` needs that author's
 * signature) and membership (a team is granted by the operator, never
 * claimed in one's own profile), as a hub must apply them to what it routes
 * and to the cards it answers lookups with.
 */
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { signAuthorship } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { type Check, type CheckContext, failed, outcome, passed } from "../context.js";
import type { Control, Peer } from "../raw.js";

type Item = Record<string, unknown>;

const node = (createdBy: string, secret: string, extra: Item = {}): Item => ({
  id: secret,
  type: "fact",
  title: "ocp-test authored node",
  data: { secret },
  confidence: 1,
  timestamp: new Date().toISOString(),
  createdBy,
  tags: [],
  visibility: "workspace",
  ...extra,
});

const stream = (nodes: Item[], edges: Item[] = []) => ({
  streamId: "ocp-test-authority",
  nodes,
  ...(edges.length > 0 ? { edges } : {}),
  isIncremental: true,
  sequenceNumber: 0,
});

/** Streams `payload` from `from` to `to`; whether it was refused, and whether `to` got `secret`. */
async function streamed(
  context: CheckContext,
  from: { id: AgentIdentity; peer: Peer },
  to: { id: AgentIdentity; peer: Peer } | "broadcast",
  recipient: { id: AgentIdentity; peer: Peer },
  payload: unknown,
  secret: string,
): Promise<{ answer: Control; delivered: boolean }> {
  const message = context.signed(from.id, {
    type: "ocp.knowledge.stream",
    to: to === "broadcast" ? to : to.id.id,
    payload,
  });
  from.peer.send(message.text);
  const answer = await from.peer.answerTo(message.id, context.answerTimeoutMs);
  // A workspace node sent behind it, directly: the recipient is reading, and streams are routed.
  const marker = context.marker("after");
  const behind = context.signed(from.id, {
    type: "ocp.knowledge.stream",
    to: recipient.id.id,
    payload: stream([node(from.id.id, marker)]),
  });
  from.peer.send(behind.text);
  await recipient.peer.receivedMarker(marker, context.answerTimeoutMs);
  return { answer, delivered: recipient.peer.delivered().some((text) => text.includes(secret)) };
}

export const authorship: Check = {
  spec: {
    name: "authorship",
    sections: ["§5.1.1", "§8.2"],
    advisory: true,
    summary:
      "knowledge claiming another agent's createdBy, unsigned or with a forged author signature, is refused; a relay signed by its author passes (advisory: the spec signs messages, not items, and says nothing of who may write a node)",
  },
  async run(context) {
    const relayer = await context.join("relayer");
    const author = await context.join("author");
    const reader = await context.join("reader");
    const by = author.id.id;
    const cases: Array<[label: string, build: (secret: string) => unknown]> = [
      ["a node of another author, unsigned", (secret) => stream([node(by, secret)])],
      [
        "an edge of another author, unsigned",
        (secret) =>
          stream(
            [],
            [{ id: secret, source: "a", target: "b", relationship: "r", weight: 1, createdBy: by }],
          ),
      ],
      [
        "a forged author signature (signer the author, signed with the relayer's key)",
        (secret) =>
          stream([signAuthorship(node(by, secret), by, relayer.id.secretKey, nativeEd25519)]),
      ],
      [
        "the relayer's own author signature on another author's node",
        (secret) =>
          stream([
            signAuthorship(node(by, secret), relayer.id.id, relayer.id.secretKey, nativeEd25519),
          ]),
      ],
    ];
    const problems: string[] = [];
    const notes: string[] = [];
    for (const [label, build] of cases) {
      const secret = context.marker("claimed");
      const { answer, delivered } = await streamed(
        context,
        relayer,
        reader,
        reader,
        build(secret),
        secret,
      );
      if (answer.type !== "ocp.hub.reject" || delivered)
        problems.push(`${label}: ${outcome(answer)}${delivered ? ", delivered" : ""}`);
      else notes.push(`${label}: ${outcome(answer)}`);
    }
    const secret = context.marker("relayed");
    const signed = signAuthorship(node(by, secret), by, author.id.secretKey, nativeEd25519);
    const relay = await streamed(context, relayer, reader, reader, stream([signed]), secret);
    if (relay.answer.type === "ocp.hub.reject" || !relay.delivered)
      problems.push(
        `a node signed by its author and relayed unchanged was ${relay.answer.type === "ocp.hub.reject" ? `refused with ${outcome(relay.answer)}` : "never delivered"}`,
      );
    return problems.length > 0
      ? failed(`accepted or mishandled: ${problems.join("; ")}`)
      : passed(
          `refused, never delivered — ${notes.join("; ")}; a relay signed by its author was delivered`,
        );
  },
};

/** Sends `ocp.hub.lookup` for `agentId`; the hub's answer about it, or undefined (no lookup). */
async function lookup(
  context: CheckContext,
  asker: Peer,
  agentId: string,
): Promise<Control | undefined> {
  const before = asker.controls().length;
  asker.send(JSON.stringify({ protocol: "a2a+ocp", type: "ocp.hub.lookup", payload: { agentId } }));
  return asker
    .waitFor(
      () =>
        asker
          .controls()
          .slice(before)
          .find(
            (c) =>
              (c.type === "ocp.hub.profile" && c.payload["agentId"] === agentId) ||
              c.type === "ocp.hub.reject",
          ),
      "lookup answer",
      context.answerTimeoutMs,
    )
    .catch(() => undefined);
}

export const membership: Check = {
  spec: {
    name: "membership",
    sections: ["§8.5", "§8.1"],
    advisory: false,
    summary:
      "a team claimed in an agent's own signed profile grants nothing: team knowledge and a team-only card never reach another agent that claims the same team",
  },
  async run(context) {
    const team = context.marker("team");
    const alice = await context.joinClaiming("alice", { team, visibility: "team" });
    const bob = await context.joinClaiming("bob", { team });
    const carol = await context.joinClaiming("carol", { visibility: "private" });
    const problems: string[] = [];
    for (const to of [bob, "broadcast"] as const) {
      const secret = context.marker("team-node");
      const how = to === "broadcast" ? "broadcast" : "to bob";
      const payload = stream([node(alice.id.id, secret, { visibility: "team" })]);
      const { delivered } = await streamed(context, alice, to, bob, payload, secret).catch(
        (error: Error) => {
          problems.push(`${how}: ${error.message}`);
          return { delivered: false };
        },
      );
      if (delivered) problems.push(`a team node ${how} reached bob, who only claims the team`);
    }
    let cards: string;
    const hidden = await lookup(context, bob.peer, carol.id.id);
    if (hidden === undefined || hidden.type === "ocp.hub.reject") {
      cards = "the hub answers no ocp.hub.lookup, so no card is shown";
    } else if (hidden.payload["profile"] !== undefined) {
      cards =
        "the hub shows a private card to a lookup (card visibility is not in the spec), so cards were not judged";
    } else {
      const teamCard = await lookup(context, bob.peer, alice.id.id);
      if (teamCard?.payload["profile"] !== undefined)
        problems.push("a lookup by bob returned alice's team-only card");
      cards = "lookups hide a private card and the team-only card from bob";
    }
    return problems.length > 0
      ? failed(`a self-claimed team was trusted: ${problems.join("; ")}`)
      : passed(
          `alice and bob both claim team ${team} in their own profiles: alice's team node (direct and broadcast) never reached bob, her workspace nodes did; ${cards}`,
        );
  },
};
