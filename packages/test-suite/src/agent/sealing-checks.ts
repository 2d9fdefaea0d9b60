/**
 * §8.4 end-to-end encryption at the agent (docs/a2a-ocp-wire.md,
 * "End-to-end encryption"): a tester seals a stream for the agent with the
 * `encryptionKey` of its signed profile; the agent opens it and serves the
 * node, and a node sealed for its author and the agent only never reaches a
 * third agent, in clear or sealed for it. An agent that publishes no
 * encryption key is skipped. Observed, as every knowledge check, through
 * collective queries; an answer that comes sealed is opened with the
 * asking tester's key.
 */
import { randomUUID } from "node:crypto";
import { type EncryptedMessage, type PlainMessage, signObject } from "@ocp/a2a-ocp-messaging";
import {
  SEALED_ENVELOPE_FIELD,
  sealedAccessOf,
  signedRuntimeMessage,
} from "@ocp/a2a-ocp-messaging/internal";
import { decryptMessage, encryptMessage, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { failed, passed, skipped } from "../context.js";
import type { AgentCheck, AgentCheckContext, Node } from "./context.js";
import type { Received, Tester } from "./session.js";

const NO_KEY =
  "the agent publishes no encryptionKey in its signed profile, so nothing can be sealed for it";

/** The agent's X25519 key from its verified profile, if it publishes one. */
function agentKey(context: AgentCheckContext): Uint8Array | undefined {
  const key = context.session.agentProfile?.["encryptionKey"];
  if (typeof key !== "string") return undefined;
  const bytes = new Uint8Array(Buffer.from(key, "base64"));
  return bytes.length === 32 ? bytes : undefined;
}

/** Streams `nodes` from `tester` to the agent, sealed for `tester` and the agent. */
function sealedStream(context: AgentCheckContext, tester: Tester, key: Uint8Array, nodes: Node[]) {
  // Built and checked by the message layer; encryption below drops this signature and signs anew.
  const plain = signedRuntimeMessage(
    tester.identity,
    {
      type: "ocp.knowledge.stream",
      to: context.agentId,
      payload: {
        streamId: `ocp-test-sealed-${randomUUID()}`,
        nodes,
        isIncremental: true,
        sequenceNumber: 1,
      },
    },
    { backend: nativeEd25519 },
  );
  const recipients = [
    { agentId: tester.identity.id, publicKey: tester.identity.encryption!.publicKey },
    { agentId: context.agentId, publicKey: key },
  ];
  const declared: PlainMessage = {
    ...plain,
    [SEALED_ENVELOPE_FIELD]: {
      recipients: recipients.map((r) => r.agentId),
      access: sealedAccessOf(plain.type, tester.identity.id, plain.payload),
    },
  };
  const sealed = encryptMessage(declared, recipients);
  tester.send(JSON.stringify(signObject(sealed, tester.identity.secretKey, nativeEd25519)));
}

/** `message` as `tester` reads it: opened with its key when sealed (undefined when it cannot). */
function readable(tester: Tester, message: Received): Record<string, unknown> | undefined {
  if (message.value["encrypted"] !== true) return message.value;
  const key = tester.identity.encryption;
  if (key === undefined) return undefined;
  const opened = decryptMessage(message.value as unknown as EncryptedMessage, {
    agentId: tester.identity.id,
    secretKey: key.secretKey,
  });
  return opened.ok ? opened.value : undefined;
}

/** Asks the agent `word`; the node ids of its answer (opened if sealed), or undefined past the timeout. */
async function ask(context: AgentCheckContext, tester: Tester, word: string) {
  const queryId = `ocp-test-query-${randomUUID()}`;
  context.send(tester, "ocp.collective.query", {
    queryId,
    query: word,
    timeout: context.queryTimeoutMs,
  });
  const answer = await tester.inbox.waitFor(() => {
    for (const m of tester.inbox.messages) {
      const value = readable(tester, m);
      const payload = value?.["payload"] as { queryId?: unknown; findings?: unknown } | undefined;
      if (value?.["type"] === "ocp.collective.response" && payload?.queryId === queryId)
        return payload;
    }
    return undefined;
  }, context.queryTimeoutMs);
  if (answer === undefined) return undefined;
  const findings = Array.isArray(answer.findings) ? answer.findings : [];
  return findings.flatMap((f) => {
    const id = (f as { node?: { id?: unknown } })?.node?.id;
    return typeof id === "string" ? [id] : [];
  });
}

export const agentSealedRead: AgentCheck = {
  spec: {
    name: "agent-sealed-read",
    sections: ["§8.4"],
    advisory: true,
    summary:
      "a knowledge stream sealed for the agent (to the encryptionKey of its profile) is opened, and its node served (advisory: §8.4 says encryption is available, not that an agent must accept it)",
  },
  async run(context) {
    const key = agentKey(context);
    if (key === undefined) return skipped(NO_KEY);
    const author = await context.tester("author");
    const reason = await context.seed(author, []);
    if (reason !== undefined) return skipped(reason);
    const word = context.word();
    const node = context.node(author, word, { visibility: "public" });
    sealedStream(context, author, key, [node]);
    const found = await ask(context, author, word);
    if (found === undefined)
      return failed(
        `no answer to a collective query after the sealed stream (${context.queryTimeoutMs} ms)`,
      );
    return found.includes(node.id)
      ? passed("the node of a stream sealed for the agent is served after it")
      : failed(
          "the node of a stream sealed for the agent is not served: the agent did not open it",
        );
  },
};

export const agentSealedNoLeak: AgentCheck = {
  spec: {
    name: "agent-sealed-no-leak",
    sections: ["§8.4", "§8.5"],
    advisory: true,
    summary:
      "a private node sealed for its author and the agent (sharedWith the agent) never reaches a third agent, in clear or sealed for it",
  },
  async run(context) {
    const key = agentKey(context);
    if (key === undefined) return skipped(NO_KEY);
    const author = await context.tester("author");
    const stranger = await context.tester("stranger");
    const word = context.word();
    const node = context.node(author, word, {
      visibility: "private",
      sharedWith: [context.agentId],
    });
    sealedStream(context, author, key, [node]);
    const held = await ask(context, author, word);
    if (held === undefined || !held.includes(node.id))
      return skipped(
        "the agent did not return the sealed node to its author in answer to a collective query, so a leak cannot be observed (see agent-sealed-read)",
      );
    const answered = await ask(context, stranger, word);
    const leaked = stranger.inbox.messages.filter((m) => {
      const value = readable(stranger, m);
      return m.text.includes(word) || (value !== undefined && JSON.stringify(value).includes(word));
    });
    if (leaked.length > 0)
      return failed(
        `a third agent received the sealed node (${leaked.length} message(s) carry its word, ${leaked[0]?.value["encrypted"] === true ? "sealed for it" : "in clear"})`,
      );
    return passed(
      `served to its author, not to a third agent${answered === undefined ? " (which got no answer)" : ""}`,
    );
  },
};
