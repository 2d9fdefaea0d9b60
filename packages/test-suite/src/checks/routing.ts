/**
 * §8.5 visibility in every message type that can carry a knowledge node,
 * §6.1 durable delivery across a reconnect, §5.5 event routing and
 * notifications.
 */
import { type Check, type CheckContext, failed, outcome, passed, skipped } from "../context.js";

const privateNode = (createdBy: string, sharedWith: string[], secret: string) => ({
  id: secret,
  type: "fact",
  title: "ocp-test private node",
  data: { secret },
  confidence: 1,
  timestamp: new Date().toISOString(),
  createdBy,
  tags: [],
  visibility: "private",
  sharedWith,
});

type Node = ReturnType<typeof privateNode>;

/** Every message type that carries a node, with a payload that carries `node`. */
export const NODE_CARRIERS: ReadonlyArray<[type: string, payload: (node: Node) => unknown]> = [
  [
    "ocp.knowledge.stream",
    (node) => ({ streamId: "s1", nodes: [node], isIncremental: true, sequenceNumber: 0 }),
  ],
  [
    "ocp.collective.response",
    (node) => ({
      queryId: "q1",
      findings: [{ node, relevance: 0.9 }],
      confidence: 0.9,
      processingTime: 5,
    }),
  ],
  [
    "ocp.sync.conflict",
    (node) => ({
      syncId: "s1",
      conflicts: [{ type: "node", itemId: node.id, localVersion: node, remoteVersion: node }],
    }),
  ],
  ["ocp.custom.share", (node) => ({ deep: [{ node }] })],
  [
    "ocp.awareness.beacon",
    (node) => ({ status: "working", availability: "available", attachment: node }),
  ],
];

export const visibility: Check = {
  spec: {
    name: "visibility",
    sections: ["§8.5"],
    advisory: false,
    summary:
      "a private node reaches the agent it is shared with and never another, in every message type that carries one",
  },
  async run(context) {
    const alice = await context.join("alice");
    const bob = await context.join("bob");
    const carol = await context.join("carol");
    const problems: string[] = [];
    for (const [type, payload] of NODE_CARRIERS) {
      for (const to of [[bob.id.id, carol.id.id], "broadcast"] as const) {
        const secret = context.marker("secret");
        const message = context.signed(alice.id, {
          type,
          to: typeof to === "string" ? to : [...to],
          payload: payload(privateNode(alice.id.id, [bob.id.id], secret)),
        });
        alice.peer.send(message.text);
        const answer = await alice.peer.answerTo(message.id, context.answerTimeoutMs);
        const how = `${type} to ${typeof to === "string" ? "broadcast" : "bob and carol"}`;
        if (answer.type === "ocp.hub.reject") {
          problems.push(`${how}: refused with ${outcome(answer)}`);
          continue;
        }
        await bob.peer.receivedMarker(secret, context.answerTimeoutMs).catch(() => {
          problems.push(`${how}: bob, in sharedWith, never got it`);
        });
        const marker = context.marker("after");
        alice.peer.send(
          context.signed(alice.id, {
            type: "ocp.custom.note",
            to: carol.id.id,
            payload: { marker },
          }).text,
        );
        await carol.peer.receivedMarker(marker, context.answerTimeoutMs);
        if (carol.peer.delivered().some((text) => text.includes(secret))) {
          problems.push(`${how}: delivered to carol, who may not see it`);
        }
      }
    }
    return problems.length > 0
      ? failed(problems.join("; "))
      : passed(
          `${NODE_CARRIERS.length} carrier types × direct and broadcast: shared with bob only, never carol`,
        );
  },
};

export const durableDelivery: Check = {
  spec: {
    name: "durable-delivery",
    sections: ["§6.1"],
    advisory: false,
    summary: "messages to an offline agent arrive in order after it reconnects, once",
  },
  async run(context) {
    const alice = await context.join("alice");
    const bob = await context.join("bob");
    bob.peer.close();
    await bob.peer.closeWithin(context.answerTimeoutMs);
    const markers = [1, 2, 3].map((n) => context.marker(`offline-${n}`));
    for (const marker of markers) {
      const message = context.signed(alice.id, {
        type: "ocp.custom.note",
        to: bob.id.id,
        payload: { marker },
      });
      alice.peer.send(message.text);
      const answer = await alice.peer.answerTo(message.id, context.answerTimeoutMs);
      if (answer.type === "ocp.hub.reject") {
        return failed(`a message to offline ${bob.id.id} was refused with ${outcome(answer)}`);
      }
    }
    const again = await context.rejoin(bob.id, 0);
    try {
      await again.receivedMarker(markers[2]!, context.answerTimeoutMs);
    } catch {
      const got = markers.filter((m) => again.delivered().some((t) => t.includes(m))).length;
      return failed(`after reconnecting, ${bob.id.id} got ${got} of 3 messages sent while offline`);
    }
    const order = markers.map((m) => again.delivered().findIndex((t) => t.includes(m)));
    if (order.some((at, i) => at < 0 || (i > 0 && at < order[i - 1]!))) {
      return failed(`delivered out of order: positions ${order.join(", ")}`);
    }
    const lastSeq = Math.max(0, ...again.deliveries().map((d) => d.seq));
    again.send(
      JSON.stringify({ protocol: "a2a+ocp", type: "ocp.hub.delivered", payload: { seq: lastSeq } }),
    );
    again.close();
    await again.closeWithin(context.answerTimeoutMs);
    const third = await context.rejoin(bob.id, lastSeq);
    const marker = context.marker("fresh");
    alice.peer.send(
      context.signed(alice.id, { type: "ocp.custom.note", to: bob.id.id, payload: { marker } })
        .text,
    );
    await third.receivedMarker(marker, context.answerTimeoutMs);
    const repeated = markers.filter((m) => third.delivered().some((t) => t.includes(m)));
    if (repeated.length > 0) {
      return failed(
        `redelivered ${repeated.length} message(s) already confirmed up to seq ${lastSeq}`,
      );
    }
    return passed(
      `3 messages sent while offline arrived in order after the reconnect; none again after confirming seq ${lastSeq}`,
    );
  },
};

async function subscribe(context: CheckContext, name: string, eventTypes: string[]) {
  const agent = await context.join(name);
  const message = context.signed(agent.id, {
    type: "ocp.event.subscribe",
    to: "broadcast",
    payload: { subscriptionId: context.marker("sub"), eventTypes },
  });
  agent.peer.send(message.text);
  const answer = await agent.peer.answerTo(message.id, context.answerTimeoutMs);
  if (answer.type === "ocp.hub.reject")
    throw new Error(`subscribe refused with ${outcome(answer)}`);
  return agent;
}

async function publishOne(context: CheckContext) {
  const family = context.marker("evt").replaceAll("-", "_");
  const matching = await subscribe(context, "matching", [`${family}.*`]);
  const other = await subscribe(context, "other", [`${family}_other.*`]);
  const plain = await context.join("plain");
  const publisher = await context.join("publisher");
  const eventId = context.marker("event");
  const message = context.signed(publisher.id, {
    type: "ocp.event.publish",
    to: "broadcast",
    payload: {
      eventId,
      eventType: `${family}.happened`,
      eventData: { n: 1 },
      timestamp: new Date().toISOString(),
      source: publisher.id.id,
    },
  });
  publisher.peer.send(message.text);
  const answer = await publisher.peer.answerTo(message.id, context.answerTimeoutMs);
  return { matching, other, plain, publisher, eventId, answer };
}

export const eventRouting: Check = {
  spec: {
    name: "event-routing",
    sections: ["§5.5.1", "§5.5.2"],
    advisory: false,
    summary: "a published event reaches the agents subscribed to its type, and no other",
  },
  async run(context) {
    const { matching, other, plain, publisher, eventId, answer } = await publishOne(context);
    if (answer.type === "ocp.hub.reject")
      return failed(`the publish was refused with ${outcome(answer)}`);
    try {
      await matching.peer.receivedMarker(eventId, context.answerTimeoutMs);
    } catch {
      return failed("the subscribed agent never got the event");
    }
    const leaks: string[] = [];
    for (const [name, agent] of [
      ["a subscriber to another type", other],
      ["an agent without subscription", plain],
    ] as const) {
      const marker = context.marker("after");
      publisher.peer.send(
        context.signed(publisher.id, {
          type: "ocp.custom.note",
          to: agent.id.id,
          payload: { marker },
        }).text,
      );
      await agent.peer.receivedMarker(marker, context.answerTimeoutMs);
      if (agent.peer.delivered().some((text) => text.includes(eventId))) leaks.push(name);
    }
    return leaks.length > 0
      ? failed(`the event also reached ${leaks.join(" and ")}`)
      : passed("delivered to the matching subscription only");
  },
};

export const eventNotifications: Check = {
  spec: {
    name: "event-notifications",
    sections: ["§5.5.4"],
    advisory: true,
    summary: "a subscriber gets ocp.event.notification naming its subscription",
  },
  async run(context) {
    const { matching, eventId, answer } = await publishOne(context);
    if (answer.type === "ocp.hub.reject")
      return failed(`the publish was refused with ${outcome(answer)}`);
    const got = await matching.peer
      .receivedMarker(eventId, context.answerTimeoutMs)
      .catch(() => undefined);
    if (got === undefined)
      return failed("the subscribed agent got neither a notification nor the event");
    const type = (JSON.parse(got) as { type?: string }).type;
    if (type === "ocp.event.notification")
      return passed("the subscriber got ocp.event.notification");
    return skipped(
      `the target does not offer notifications: it forwards ${String(type)} itself to the subscriber`,
    );
  },
};
