/**
 * Agent checks on knowledge (§5.1, §5.2, §8.3, §8.5): the agent answers a
 * collective query within its timeout, ignores forged messages, respects
 * visibility in what it answers and streams, and honours updates and
 * deletions. Knowledge goes in by `ocp.knowledge.stream` and is observed
 * through the agent's answers to collective queries.
 */

import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { excerpt, failed, passed, skipped } from "../context.js";
import type { AgentCheck, AgentCheckContext, Answer, Node } from "./context.js";
import type { Tester } from "./session.js";

function signatureProblem(context: AgentCheckContext, answer: Answer): string | undefined {
  const signed = context.signedByAgent(answer.message);
  if (signed === undefined)
    return "the agent's key is unknown (no verified profile), so its signature cannot be checked";
  return signed
    ? undefined
    : `its answer is not signed by the agent's key: ${excerpt(answer.message.text)}`;
}

export const agentCollectiveQuery: AgentCheck = {
  spec: {
    name: "agent-collective-query",
    sections: ["§5.2.1", "§5.2.2", "§8.2"],
    advisory: false,
    summary: "a collective query is answered within its timeout, by a signed, well-formed response",
  },
  async run(context) {
    const asker = await context.tester("asker");
    const word = context.word();
    const node = context.node(asker, word);
    context.stream(asker, [node]);
    const answer = await context.query(asker, word);
    if (answer === undefined)
      return failed(
        `no ocp.collective.response with the queryId within the query's timeout (${context.queryTimeoutMs} ms)`,
      );
    const problems: string[] = [];
    const body = answer.message.value["payload"];
    const payload = isJsonObject(body) ? body : {};
    if (!Array.isArray(payload["findings"])) problems.push("`findings` is not an array");
    const confidence = payload["confidence"];
    if (typeof confidence !== "number" || confidence < 0 || confidence > 1)
      problems.push(`\`confidence\` ${JSON.stringify(confidence)} is not a number in 0..1`);
    if (typeof payload["processingTime"] !== "number")
      problems.push("`processingTime` is not a number");
    const to = answer.message.value["to"];
    if (to !== asker.identity.id && !(Array.isArray(to) && to.includes(asker.identity.id)))
      problems.push(`it is addressed to ${JSON.stringify(to)}, not to the querier`);
    const signature = signatureProblem(context, answer);
    if (signature !== undefined) problems.push(signature);
    if (problems.length > 0) return failed(problems.join("; "));
    const found = context.findingIds(answer).includes(node.id);
    return passed(
      `answered in ${answer.ms} ms (timeout ${context.queryTimeoutMs} ms), signed, ${context.findingIds(answer).length} finding(s)${found ? ", including the node streamed to it" : ""}`,
    );
  },
};

/** Queries each `[word, node]` and reports the ones whose node comes back, or any text with the word. */
async function served(
  context: AgentCheckContext,
  tester: Tester,
  hidden: ReadonlyArray<readonly [string, Node]>,
): Promise<string[]> {
  const shown: string[] = [];
  for (const [word, node] of hidden) {
    const answer = await context.query(tester, word);
    if (answer === undefined)
      shown.push(`${word}: no answer to the query within ${context.queryTimeoutMs} ms`);
    else if (context.findingIds(answer).includes(node.id))
      shown.push(`${word}: among the findings`);
  }
  for (const [word] of hidden)
    if (tester.inbox.messages.some((m) => m.text.includes(word)))
      shown.push(`${word}: in a message the agent sent`);
  return [...new Set(shown)];
}

export const agentSignatures: AgentCheck = {
  spec: {
    name: "agent-signatures",
    sections: ["§8.2", "§8.3"],
    advisory: false,
    summary: "knowledge in unsigned, tampered or wrongly signed messages is ignored",
  },
  async run(context) {
    const alice = await context.tester("alice");
    const stranger = context.identity("stranger");
    const forged: Array<readonly [string, Node, string]> = [];
    const stream = (node: Node) => ({
      streamId: `ocp-test-forged-${node.id}`,
      nodes: [node],
      isIncremental: true,
      sequenceNumber: 1,
    });
    for (const label of ["unsigned", "tampered payload", "signed by another key"]) {
      const word = context.word();
      const node = context.node(alice, word);
      let value: Record<string, unknown>;
      if (label === "unsigned") {
        value = JSON.parse(
          context.signed(alice.identity, "ocp.knowledge.stream", context.agentId, stream(node))
            .text,
        );
        delete value["signature"];
      } else if (label === "tampered payload") {
        const original = context.node(alice, context.word());
        value = JSON.parse(
          context.signed(alice.identity, "ocp.knowledge.stream", context.agentId, stream(original))
            .text,
        );
        value["payload"] = stream(node);
      } else {
        value = JSON.parse(
          context.signed(stranger, "ocp.knowledge.stream", context.agentId, stream(node)).text,
        );
        value["from"] = alice.identity.id;
      }
      alice.send(JSON.stringify(value));
      forged.push([word, node, label]);
    }
    const reason = await context.seed(alice, []);
    if (reason !== undefined) return skipped(reason);
    const shown = await served(
      context,
      alice,
      forged.map(([word, node]) => [word, node] as const),
    );
    if (shown.length > 0) {
      const labels = forged
        .filter(([word]) => shown.some((s) => s.startsWith(word)))
        .map(([, , l]) => l);
      return failed(`forged knowledge was taken (${labels.join(", ")}): ${shown.join("; ")}`);
    }
    return passed(
      "knowledge from an unsigned, a tampered and a wrongly signed stream never came back; the genuine stream sent after them did",
    );
  },
};

export const agentVisibility: AgentCheck = {
  spec: {
    name: "agent-visibility",
    sections: ["§8.5", "§5.1.1", "§5.2.2"],
    advisory: false,
    summary: "private nodes reach only the agents they are shared with, in answers and streams",
  },
  async run(context) {
    const alice = await context.tester("alice");
    const bob = await context.tester("bob");
    const carol = await context.tester("carol");
    const shared = context.word();
    const secret = context.word();
    const forBob = context.node(alice, shared, {
      visibility: "private",
      sharedWith: [bob.identity.id],
    });
    const forNoOne = context.node(alice, secret, { visibility: "private", sharedWith: [] });
    const reason = await context.seed(alice, [forBob, forNoOne]);
    if (reason !== undefined) return skipped(reason);
    context.send(carol, "ocp.knowledge.subscribe", {
      subscriptionId: `ocp-test-sub-${forBob.id}`,
      deliveryMode: "push",
    });
    const shown = await served(context, carol, [
      [shared, forBob],
      [secret, forNoOne],
    ]);
    if (shown.length > 0)
      return failed(`an outsider was shown private knowledge: ${shown.join("; ")}`);
    const toBob = await context.query(bob, shared);
    const bobSees = toBob !== undefined && context.findingIds(toBob).includes(forBob.id);
    const streams = carol.inbox.ofType("ocp.knowledge.stream").length;
    return passed(
      `an outsider (subscribed: ${streams} stream message(s) sent to it; and asking) never saw either private node${bobSees ? "; the agent it is shared with did" : "; (the agent shared no private node even with its named reader)"}`,
    );
  },
};

export const agentKnowledgeUpdates: AgentCheck = {
  spec: {
    name: "agent-knowledge-updates",
    sections: ["§5.1.6"],
    advisory: false,
    summary: "an ocp.knowledge.update's changes take effect and its deletions are no longer served",
  },
  async run(context) {
    const alice = await context.tester("alice");
    const changed = context.node(alice, context.word());
    const deletedWord = context.word();
    const deleted = context.node(alice, deletedWord);
    const reason = await context.seed(alice, [changed, deleted]);
    if (reason !== undefined) return skipped(reason);
    const newWord = context.word();
    context.send(alice, "ocp.knowledge.update", {
      updates: [
        {
          nodeId: changed.id,
          changes: {
            title: newWord,
            description: `compatibility fact ${newWord}`,
            timestamp: new Date().toISOString(),
          },
          changeType: "modified",
        },
      ],
      deletions: [deleted.id],
      newEdges: [],
      deletedEdges: [],
    });
    const problems: string[] = [];
    const afterUpdate = await context.query(alice, newWord);
    if (afterUpdate === undefined) problems.push("no answer to a query after the update");
    else if (!context.findingIds(afterUpdate).includes(changed.id))
      problems.push("the modified node is not found by its new title");
    const afterDelete = await context.query(alice, deletedWord);
    if (afterDelete === undefined) problems.push("no answer to a query after the deletion");
    else if (context.findingIds(afterDelete).includes(deleted.id))
      problems.push("the deleted node is still served");
    return problems.length > 0
      ? failed(problems.join("; "))
      : passed("the modified node is found by its new title; the deleted node is no longer served");
  },
};
