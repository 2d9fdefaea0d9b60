/**
 * Agent checks on identity and teamwork (§6.4, §8.1, §5.3, §5.4): the agent
 * registers with a signed profile, votes once on a proposal with a signed
 * vote, and keeps presence (answers an awareness query with what it was told).
 */
import { randomUUID } from "node:crypto";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { excerpt, failed, passed, skipped } from "../context.js";
import { SECOND_VOTE_WATCH_MS } from "../limits.js";
import type { AgentCheck } from "./context.js";

export const agentRegistration: AgentCheck = {
  spec: {
    name: "agent-registration",
    sections: ["§6.2", "§6.4", "§8.1"],
    advisory: false,
    summary: "the connection lifecycle completes and the agent has a verifiable signed profile",
  },
  async run(context) {
    const { session } = context;
    if (session.agentKey === undefined)
      return failed(`${session.reached}: no verifiable signed profile`);
    return passed(session.reached);
  },
};

const VOTES = ["approve", "reject", "abstain"];

export const agentVote: AgentCheck = {
  spec: {
    name: "agent-vote",
    sections: ["§5.3.1", "§5.3.2", "§8.2"],
    advisory: false,
    summary:
      "an agent that votes on a proposal votes once, signed, as itself (skipped when it does not vote)",
  },
  async run(context) {
    const proposer = await context.tester("proposer");
    const proposalId = `ocp-test-proposal-${randomUUID()}`;
    context.send(proposer, "ocp.consensus.propose", {
      proposalId,
      topic: "ocp-test: adopt the compatibility suite",
      proposal: { decision: "run ocp-test in CI" },
      votingPeriod: 60,
      requiredVotes: 2,
      votingRule: "majority",
    });
    const votes = () =>
      proposer.inbox
        .ofType("ocp.consensus.vote")
        .filter((m) => (m.value["payload"] as { proposalId?: unknown })?.proposalId === proposalId);
    const first = await proposer.inbox.waitFor(() => votes()[0], context.answerTimeoutMs);
    if (first === undefined)
      return skipped(
        `the agent did not vote within ${context.answerTimeoutMs} ms (whether to vote is its program's choice; an agent that votes is checked)`,
      );
    await proposer.inbox.waitFor(
      () => (votes().length > 1 ? true : undefined),
      SECOND_VOTE_WATCH_MS,
    );
    const all = votes();
    const problems: string[] = [];
    if (all.length > 1) problems.push(`it voted ${all.length} times on one proposal`);
    for (const vote of all) {
      const body = vote.value["payload"];
      const payload = isJsonObject(body) ? body : {};
      const signed = context.signedByAgent(vote);
      if (signed === undefined)
        problems.push("the agent's key is unknown, so its vote cannot be checked");
      else if (!signed)
        problems.push(`a vote is not signed by the agent's key: ${excerpt(vote.text)}`);
      if (payload["votedBy"] !== context.agentId)
        problems.push(`votedBy is ${JSON.stringify(payload["votedBy"])}, not the agent`);
      if (!VOTES.includes(String(payload["vote"])))
        problems.push(`vote ${JSON.stringify(payload["vote"])} is none of ${VOTES.join(", ")}`);
    }
    if (problems.length > 0) return failed([...new Set(problems)].join("; "));
    const payload = first.value["payload"];
    return passed(
      `one vote (${String(isJsonObject(payload) ? payload["vote"] : undefined)}), signed by the agent, votedBy itself; no second vote within ${SECOND_VOTE_WATCH_MS} ms`,
    );
  },
};

export const agentPresence: AgentCheck = {
  spec: {
    name: "agent-presence",
    sections: ["§5.4.1", "§5.4.3", "§5.4.4"],
    advisory: false,
    summary: "a beacon is kept: an awareness query is answered with the beaconing agent's status",
  },
  async run(context) {
    const alice = await context.tester("alice");
    const task = context.word();
    context.send(alice, "ocp.awareness.beacon", {
      status: "blocked",
      availability: "available",
      currentContext: { task },
    });
    const queryId = `ocp-test-awareness-${randomUUID()}`;
    context.send(alice, "ocp.awareness.query", { queryId });
    const answer = await alice.inbox.waitFor(
      () =>
        alice.inbox
          .ofType("ocp.awareness.response")
          .find((m) => (m.value["payload"] as { queryId?: unknown })?.queryId === queryId),
      context.answerTimeoutMs,
    );
    if (answer === undefined)
      return failed(
        `no ocp.awareness.response with the queryId within ${context.answerTimeoutMs} ms`,
      );
    const problems: string[] = [];
    const signed = context.signedByAgent(answer);
    if (signed !== true)
      problems.push(
        signed === undefined
          ? "the agent's key is unknown"
          : "the response is not signed by the agent",
      );
    const agents = (answer.value["payload"] as { agents?: unknown })?.agents;
    const entry = Array.isArray(agents)
      ? (agents.find((a) => (a as { agentId?: unknown })?.agentId === alice.identity.id) as
          | { awareness?: { status?: unknown; currentContext?: { task?: unknown } } }
          | undefined)
      : undefined;
    if (entry === undefined) problems.push("the beaconing agent is not in the response");
    else {
      if (entry.awareness?.status !== "blocked")
        problems.push(`its status reads ${JSON.stringify(entry.awareness?.status)}, not "blocked"`);
      if (entry.awareness?.currentContext?.task !== task)
        problems.push("its current task is not the one it beaconed");
    }
    return problems.length > 0
      ? failed(problems.join("; "))
      : passed(
          "the awareness response lists the beaconing agent as blocked on the task it beaconed, signed",
        );
  },
};
