/**
 * §8.2 / §8.3 signatures, §4.1 freshness and unique ids, I-JSON (RFC 7493)
 * and §4.1 versions: each bad message must be refused (an `ocp.hub.reject`)
 * and never reach its recipient. A marker sent behind the bad message proves
 * the recipient is reading: the hub forwards in order.
 */
import { type Check, type CheckContext, failed, outcome, passed, type Sent } from "../context.js";

type Case = {
  label: string;
  build: (alice: Parameters<CheckContext["signed"]>[0], to: string, secret: string) => Sent;
};

/** Sends each case from a fresh sender to a fresh recipient; every one must be refused and not delivered. */
async function refusedAndDropped(
  context: CheckContext,
  cases: readonly Case[],
): Promise<{ problems: string[]; notes: string[] }> {
  const alice = await context.join("alice");
  const bob = await context.join("bob");
  const problems: string[] = [];
  const notes: string[] = [];
  for (const { label, build } of cases) {
    const secret = context.marker("bad");
    const message = build(alice.id, bob.id.id, secret);
    alice.peer.send(message.text);
    const answer = await alice.peer.answerTo(message.id, context.answerTimeoutMs);
    const marker = context.marker("after");
    alice.peer.send(
      context.signed(alice.id, { type: "ocp.custom.note", to: bob.id.id, payload: { marker } })
        .text,
    );
    await bob.peer.receivedMarker(marker, context.answerTimeoutMs);
    const leaked = bob.peer.delivered().some((text) => text.includes(secret));
    if (answer.type !== "ocp.hub.reject" || leaked) {
      problems.push(`${label}: ${outcome(answer)}${leaked ? ", delivered" : ""}`);
    } else notes.push(`${label}: ${outcome(answer)}`);
  }
  return { problems, notes };
}

function verdict({ problems, notes }: { problems: string[]; notes: string[] }) {
  return problems.length > 0
    ? failed(`accepted: ${problems.join("; ")}`)
    : passed(`refused, never delivered — ${notes.join("; ")}`);
}

const note =
  (context: CheckContext) =>
  (
    from: Parameters<CheckContext["signed"]>[0],
    to: string,
    secret: string,
    edit?: (v: Record<string, unknown>) => void,
  ) =>
    context.signed(from, { type: "ocp.custom.note", to, payload: { secret } }, edit);

export const signatures: Check = {
  spec: {
    name: "signatures",
    sections: ["§8.2", "§8.3"],
    advisory: false,
    summary: "unsigned, tampered and wrongly signed messages are refused, never forwarded",
  },
  async run(context) {
    const sign = note(context);
    const stranger = context.identity("stranger");
    return verdict(
      await refusedAndDropped(context, [
        {
          label: "unsigned",
          build: (from, to, secret) => {
            const { signature: _dropped, ...rest } = JSON.parse(sign(from, to, secret).text);
            return { id: String(rest.id), text: JSON.stringify(rest) };
          },
        },
        {
          label: "tampered payload",
          build: (from, to, secret) => {
            const value = JSON.parse(sign(from, to, "original").text);
            value.payload = { secret };
            return { id: String(value.id), text: JSON.stringify(value) };
          },
        },
        {
          label: "signed by another key",
          build: (from, to, secret) => {
            const value = JSON.parse(
              context.signed(stranger, { type: "ocp.custom.note", to, payload: { secret } }).text,
            );
            value.from = from.id;
            return { id: String(value.id), text: JSON.stringify(value) };
          },
        },
      ]),
    );
  },
};

export const replay: Check = {
  spec: {
    name: "replay",
    sections: ["§4.1", "§8.3"],
    advisory: false,
    summary: "a message id seen before is refused (replay), the original delivered once",
  },
  async run(context) {
    const alice = await context.join("alice");
    const bob = await context.join("bob");
    const secret = context.marker("once");
    const message = note(context)(alice.id, bob.id.id, secret);
    alice.peer.send(message.text);
    const first = await alice.peer.answerTo(message.id, context.answerTimeoutMs);
    if (first.type === "ocp.hub.reject")
      return failed(`the original was refused with ${outcome(first)}`);
    await bob.peer.receivedMarker(secret, context.answerTimeoutMs);
    const firstAnswers = alice.peer.controls().findIndex((c) => c.payload["id"] === message.id) + 1;
    alice.peer.send(message.text);
    const second = await alice.peer.waitFor(
      () =>
        alice.peer
          .controls()
          .slice(firstAnswers)
          .find((c) => c.payload["id"] === message.id),
      "answer to the replay",
      context.answerTimeoutMs,
    );
    const marker = context.marker("after");
    alice.peer.send(note(context)(alice.id, bob.id.id, marker).text);
    await bob.peer.receivedMarker(marker, context.answerTimeoutMs);
    const copies = bob.peer.delivered().filter((text) => text.includes(secret)).length;
    if (second.type !== "ocp.hub.reject" || copies !== 1) {
      return failed(`the replay was ${outcome(second)}; the recipient got ${copies} copies`);
    }
    return passed(`the replay was refused with ${outcome(second)}; delivered once`);
  },
};

export const expiry: Check = {
  spec: {
    name: "expiry",
    sections: ["§4.1"],
    advisory: false,
    summary: "a message past timestamp + ttl, or stamped far in the future, is refused",
  },
  async run(context) {
    const sign = note(context);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const hourAhead = new Date(Date.now() + 3_600_000).toISOString();
    return verdict(
      await refusedAndDropped(context, [
        {
          label: "expired (1 h old, ttl 1 s)",
          build: (from, to, secret) =>
            sign(from, to, secret, (v) => {
              v["timestamp"] = hourAgo;
              v["ttl"] = 1;
            }),
        },
        {
          label: "from the future (1 h ahead)",
          build: (from, to, secret) =>
            sign(from, to, secret, (v) => {
              v["timestamp"] = hourAhead;
            }),
        },
      ]),
    );
  },
};

export const iJson: Check = {
  spec: {
    name: "i-json",
    sections: ["§4.1", "RFC 7493 §2.3"],
    advisory: false,
    summary: "a message with duplicate member names (top level, nested, escaped) is refused",
  },
  async run(context) {
    const sign = note(context);
    const splice = (sent: Sent, from: string, to: string): Sent => ({
      id: sent.id,
      text: sent.text.replace(from, to),
    });
    return verdict(
      await refusedAndDropped(context, [
        {
          label: "second `from` spliced in",
          build: (from, to, secret) => {
            const sent = sign(from, to, secret);
            return splice(
              sent,
              `"from":"${from.id}"`,
              `"from":"a2a://someone-else","from":"${from.id}"`,
            );
          },
        },
        {
          label: "nested duplicate",
          build: (from, to, secret) => {
            const sent = sign(from, to, secret);
            return splice(sent, `"secret":"${secret}"`, `"secret":"x","secret":"${secret}"`);
          },
        },
        {
          label: "duplicate spelled with an escape",
          build: (from, to, secret) => {
            const sent = sign(from, to, secret);
            return splice(
              sent,
              `"type":"ocp.custom.note"`,
              `"\\u0074ype":"ocp.custom.evil","type":"ocp.custom.note"`,
            );
          },
        },
      ]),
    );
  },
};

export const version: Check = {
  spec: {
    name: "version",
    sections: ["§3", "§4.1"],
    advisory: false,
    summary: "another major version is refused; a newer minor of 1.x is accepted",
  },
  async run(context) {
    const sign = note(context);
    const refused = await refusedAndDropped(context, [
      {
        label: "version 2.0.0",
        build: (from, to, secret) =>
          sign(from, to, secret, (v) => {
            v["version"] = "2.0.0";
          }),
      },
    ]);
    if (refused.problems.length > 0) return verdict(refused);
    const alice = await context.join("alice");
    const bob = await context.join("bob");
    const minor = context.marker("minor");
    const message = sign(alice.id, bob.id.id, minor, (v) => {
      v["version"] = "1.1.0";
    });
    alice.peer.send(message.text);
    const answer = await alice.peer.answerTo(message.id, context.answerTimeoutMs);
    if (answer.type === "ocp.hub.reject") {
      return failed(`version 1.1.0 (a compatible minor) was refused with ${outcome(answer)}`);
    }
    await bob.peer.receivedMarker(minor, context.answerTimeoutMs);
    return passed(`${refused.notes.join("; ")}; version 1.1.0 accepted and delivered`);
  },
};
