/**
 * Authorship of knowledge at the agent (docs/a2a-ocp-wire.md, "Authorship
 * of knowledge"): the agent merges a node only when its effective signer (a
 * verified `ocpAuthorship.signer`, else the message's sender) may write it,
 * so another agent cannot overwrite a node by reusing its id. Observed, as
 * every knowledge check, through the agent's answers to collective queries.
 */
import { signAuthorship } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { failed, passed, skipped } from "../context.js";
import type { AgentCheck, Answer, Node } from "./context.js";

/** The finding of `answer` whose node has `id`, if any. */
function finding(answer: Answer, id: string): Record<string, unknown> | undefined {
  const findings = (answer.message.value["payload"] as { findings?: unknown })?.findings;
  if (!Array.isArray(findings)) return undefined;
  for (const f of findings) {
    const node = (f as { node?: Record<string, unknown> })?.node;
    if (node?.["id"] === id) return node;
  }
  return undefined;
}

export const agentAuthorship: AgentCheck = {
  spec: {
    name: "agent-authorship",
    sections: ["§5.1.1", "§8.2"],
    advisory: true,
    summary:
      "another agent streaming a node with the id of an author's node (under its own createdBy, the author's unsigned, or a forged author signature) does not replace it (advisory: the spec says nothing of who may change a node)",
  },
  async run(context) {
    const author = await context.tester("author");
    const other = await context.tester("other");
    const by = author.identity.id;
    // One node of the author per attempt, so each attempt is judged on its own.
    const kinds = [
      "under its own createdBy",
      "under the author's createdBy, unsigned",
      "with a forged author signature (signer the author, signed with the other's key)",
    ] as const;
    const originals = kinds.map(() => {
      const word = context.word();
      return { word, node: context.node(author, word, { visibility: "public" }) };
    });
    const reason = await context.seed(
      author,
      originals.map((o) => o.node),
    );
    if (reason !== undefined) return skipped(reason);
    // Newer timestamps: a merge that takes the latest version would take these.
    const rewrite = (original: Node, createdBy: string): Node => {
      const title = context.word();
      return {
        ...original,
        title,
        description: `compatibility fact ${title}`,
        data: { word: title },
        timestamp: new Date(Date.now() + 1_000).toISOString(),
        createdBy,
      };
    };
    const [own, unsigned, forged] = originals.map((o) => o.node) as [Node, Node, Node];
    context.stream(other, [rewrite(own, other.identity.id)]);
    context.stream(other, [rewrite(unsigned, by)]);
    context.stream(other, [
      signAuthorship(rewrite(forged, by), by, other.identity.secretKey, nativeEd25519),
    ]);
    const problems: string[] = [];
    for (const [i, { word, node }] of originals.entries()) {
      // Asked on the other agent's connection, so after its streams.
      const answer = await context.query(other, word);
      const kept = answer === undefined ? undefined : finding(answer, node.id);
      if (answer === undefined) problems.push(`${kinds[i]}: no answer to the query after it`);
      else if (kept === undefined)
        problems.push(`${kinds[i]}: the author's node is no longer found by its title`);
      else if (kept["title"] !== word || kept["createdBy"] !== by)
        problems.push(
          `${kinds[i]}: the node is served with createdBy ${String(kept["createdBy"])}, title ${String(kept["title"])}`,
        );
    }
    return problems.length > 0
      ? failed(`another agent replaced an author's node: ${problems.join("; ")}`)
      : passed(
          `each of the author's nodes is still served as the author's (title, createdBy) after another agent streamed its id ${kinds.join("; ")}`,
        );
  },
};
