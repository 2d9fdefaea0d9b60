/**
 * `agent-a2a-fallback` (§9.1, §9.2, §8.5): the agent degrades to A2A for a
 * peer that does not speak OCP. The suite finds the agent's A2A endpoint
 * (`--agent-a2a`, else the `agentCard` of its signed profile), fetches its
 * card with the official SDK, and, as a plain A2A client, sends the §9.2
 * equivalent of a collective query (`search_and_respond`). Knowledge goes
 * in over OCP first (a public node, a private node shared with no one, one
 * shared with another tester), so what comes back over A2A can be judged.
 */
import { excerpt, failed, passed, skipped } from "../context.js";
import {
  a2aBaseOf,
  acceptsSignedRequests,
  allowsAnonymous,
  type Credentials,
  declaresOcp,
  fetchCard,
  sendTask,
  type TaskOutcome,
} from "./a2a-peer.js";
import type { AgentCheck } from "./context.js";

const TASK = "search_and_respond";

/** The ids of the nodes a search output's findings carry. */
function foundIds(output: Record<string, unknown>): string[] {
  const findings = output["findings"];
  if (!Array.isArray(findings)) return [];
  return findings.flatMap((f) => {
    const id = (f as { node?: { id?: unknown } })?.node?.id;
    return typeof id === "string" ? [id] : [];
  });
}

/** Why a search output is not a §5.2.2 response payload for `queryId`, or undefined. */
function malformed(output: Record<string, unknown>, queryId: string): string | undefined {
  const problems: string[] = [];
  if (!Array.isArray(output["findings"])) problems.push("`findings` is not an array");
  const confidence = output["confidence"];
  if (typeof confidence !== "number" || confidence < 0 || confidence > 1)
    problems.push(`\`confidence\` ${JSON.stringify(confidence)} is not a number in 0..1`);
  if (output["queryId"] !== queryId)
    problems.push(`\`queryId\` ${JSON.stringify(output["queryId"])} is not the one asked`);
  return problems.length === 0
    ? undefined
    : `${problems.join("; ")}: ${excerpt(JSON.stringify(output))}`;
}

function describe(outcome: TaskOutcome): string {
  return outcome.kind === "answered"
    ? `answered: ${excerpt(JSON.stringify(outcome.output))}`
    : `${outcome.kind}: ${excerpt(outcome.reason)}`;
}

export const agentA2AFallback: AgentCheck = {
  spec: {
    name: "agent-a2a-fallback",
    sections: ["§9.1", "§9.2", "§8.5"],
    advisory: true,
    summary:
      "a plain A2A peer gets the agent's card (declaring a2a+ocp) and a well-formed search_and_respond; never private knowledge, never as someone else",
  },
  async run(context) {
    const profileBase = a2aBaseOf(context.session.agentProfile);
    const base = context.session.a2aUrl ?? profileBase;
    if (base === undefined)
      return skipped(
        "the agent declares no A2A endpoint: its signed profile carries no agentCard with an http(s) URL, and none was given (--agent-a2a)",
      );
    const where =
      context.session.a2aUrl === undefined ? "its signed profile's agentCard" : "--agent-a2a";
    let card: Awaited<ReturnType<typeof fetchCard>>;
    try {
      card = await fetchCard(base, context.answerTimeoutMs);
    } catch (error) {
      return failed(
        `the agent card at ${base} (from ${where}) could not be fetched with the A2A SDK: ${(error as Error).message}`,
      );
    }
    if (!declaresOcp(card))
      return failed(
        `the agent card at ${base} declares neither the a2a+ocp extension nor protocols ["a2a+ocp"] (§7.1)`,
      );
    const alice = await context.tester("alice");
    const bob = await context.tester("bob");
    const carol = await context.tester("carol");
    const [open, secret, shared] = [context.word(), context.word(), context.word()];
    const publicNode = context.node(alice, open, { visibility: "public" });
    const forNoOne = context.node(alice, secret, { visibility: "private", sharedWith: [] });
    const forBob = context.node(alice, shared, {
      visibility: "private",
      sharedWith: [bob.identity.id],
    });
    const reason = await context.seed(alice, [publicNode, forNoOne, forBob]);
    if (reason !== undefined) return skipped(reason);
    const hidden = new Map<string, string>([
      [forNoOne.id, "a private node shared with no one"],
      [forBob.id, "a private node shared with another agent"],
    ]);
    const search = (credentials: Credentials, words: string, from?: string) => {
      const queryId = `ocp-test-a2a-${globalThis.crypto.randomUUID()}`;
      const input = { queryId, query: words, timeout: context.queryTimeoutMs };
      return sendTask(card, context.answerTimeoutMs, credentials, TASK, input, from).then(
        (outcome) => ({
          outcome,
          queryId,
        }),
      );
    };
    const leaks = (outcome: TaskOutcome) =>
      outcome.kind === "answered"
        ? foundIds(outcome.output).flatMap((id) => {
            const what = hidden.get(id);
            return what === undefined ? [] : [what];
          })
        : [];
    const everything = `${open} ${secret} ${shared}`;
    const problems: string[] = [];
    const notes: string[] = [];
    let answeredWell = false;

    const judge = (
      label: string,
      { outcome, queryId }: { outcome: TaskOutcome; queryId: string },
    ) => {
      if (outcome.kind === "unreachable") problems.push(`${label}: ${describe(outcome)}`);
      if (outcome.kind === "malformed") problems.push(`${label}: ${describe(outcome)}`);
      if (outcome.kind !== "answered") return false;
      const leaked = leaks(outcome);
      if (leaked.length > 0) problems.push(`${label} was shown ${leaked.join(" and ")}`);
      const bad = malformed(outcome.output, queryId);
      if (bad !== undefined) problems.push(`${label}: not a ${TASK} output (${bad})`);
      else if (!foundIds(outcome.output).includes(publicNode.id))
        problems.push(`${label}: the public node streamed to the agent is not among the findings`);
      else answeredWell = true;
      return true;
    };

    const anonymous = await search({ anonymous: true }, everything);
    if (!judge("an anonymous caller", anonymous))
      notes.push(`an anonymous search was refused (${excerpt(describe(anonymous.outcome))})`);
    else notes.push("an anonymous search found the public node only");

    const signed = acceptsSignedRequests(card);
    const asCarol: Credentials | undefined = signed
      ? { signer: carol.identity, issuer: carol.identity.id, audience: context.agentId }
      : undefined;
    if (asCarol !== undefined) {
      const own = await search(asCarol, everything);
      if (!judge("a signed caller (an outsider)", own))
        problems.push(
          `the card declares signed requests, but one from a registered agent was refused: ${describe(own.outcome)}`,
        );
    }
    if (!answeredWell && problems.length === 0)
      return skipped(
        `the suite cannot get in as a plain A2A peer: anonymous callers are refused${signed ? "" : " and the card declares no scheme the suite speaks (a2a-ocp-signed-request)"} (${allowsAnonymous(card) ? "though the card says anonymous callers may" : "as the card says"})`,
      );

    // Claiming another agent's identity: in the request's `from`, and in a forged token.
    const claimed = await search(asCarol ?? { anonymous: true }, shared, bob.identity.id);
    if (claimed.outcome.kind !== "refused")
      problems.push(
        `a request from ${asCarol === undefined ? "an anonymous caller" : "a signed caller"} with \`from\` naming another agent was not refused (${describe(claimed.outcome)})${leaks(claimed.outcome).length > 0 ? ", and it was shown that agent's private node" : ""}`,
      );
    const forged = await search(
      { signer: carol.identity, issuer: bob.identity.id, audience: context.agentId },
      shared,
    );
    if (forged.outcome.kind !== "refused")
      problems.push(
        `a request token naming another agent but signed with the caller's own key was not refused (${describe(forged.outcome)})${leaks(forged.outcome).length > 0 ? ", and it was shown that agent's private node" : ""}`,
      );
    if (problems.length > 0) return failed(`A2A endpoint ${base}: ${problems.join("; ")}`);
    return passed(
      `card at ${base} (from ${where}) declares a2a+ocp; ${notes.join("; ")}${asCarol === undefined ? "" : "; a signed outsider's search found the public node and neither private one"}; a \`from\` naming another agent and a token claiming another agent were both refused`,
    );
  },
};
