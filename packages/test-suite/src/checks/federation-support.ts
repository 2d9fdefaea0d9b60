/**
 * What the federation checks share: the fixture link (skipped without
 * `--federation-fixture`), knowledge nodes, and the honest message a check
 * sends after its attack to show the link still serves what a peer may send.
 */
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import type { CheckContext, Verdict } from "../context.js";
import { skipped } from "../context.js";
import {
  type FederationTarget,
  FixtureLink,
  type FixturePeerName,
  fixtureAgent,
} from "../federation-fixture.js";
import type { Peer } from "../raw.js";

export type Item = Record<string, unknown>;

export const node = (createdBy: string, marker: string, visibility: string): Item => ({
  id: marker,
  type: "fact",
  title: "ocp-test federation node",
  data: { marker },
  confidence: 1,
  timestamp: new Date().toISOString(),
  createdBy,
  tags: [],
  visibility,
});

export const stream = (nodes: Item[]) => ({
  streamId: "ocp-test-federation",
  nodes,
  edges: [],
  isIncremental: true,
  sequenceNumber: 0,
});

/** The verdict when the suite was given no federation fixture. */
export const NO_FIXTURE: Verdict = skipped(
  "needs the federation fixture: ocp-test --hub URL --federation-fixture DIR --federation-link URL (the hub's federate file listing the fixture's peers)",
);

/** A fixture link of `name` with one agent of its own vouched for; closed with the check. */
export async function fixtureLink(
  context: CheckContext,
  target: FederationTarget,
  name: FixturePeerName = "peer",
): Promise<{ link: FixtureLink; agent: AgentIdentity }> {
  const link = await FixtureLink.open(target, name, context.answerTimeoutMs);
  context.track(link.peer);
  const { id, card } = fixtureAgent(name, "agent");
  link.vouch([card]);
  return { link, agent: id };
}

/**
 * Forwards an honest message from `agent` (a public node) to `local` and
 * waits for the ack and the delivery: "" when both came, else what went wrong.
 */
export async function honestFlows(
  context: CheckContext,
  link: FixtureLink,
  agent: AgentIdentity,
  local: { id: AgentIdentity; peer: Peer },
): Promise<string> {
  const marker = context.marker("fed-honest");
  const honest = context.signed(agent, {
    type: "ocp.knowledge.stream",
    to: local.id.id,
    payload: stream([node(agent.id, marker, "public")]),
  });
  const seq = link.forward(honest.text);
  const answer = await link.answerTo(seq, context.answerTimeoutMs).catch((e: Error) => e.message);
  if (answer !== "ack") return `the honest message after it was answered ${answer}, not ack`;
  const got = await local.peer
    .receivedMarker(marker, context.answerTimeoutMs)
    .then(() => true)
    .catch(() => false);
  return got ? "" : "the honest message after it was acked but never delivered";
}
