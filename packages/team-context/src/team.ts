import { hubLink, OCPAgent, type OCPAgentOptions } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";

/** Options of {@link joinTeam}. */
export interface JoinTeamOptions {
  /** The hub's `ws://` or `wss://` URL. */
  readonly hubUrl: string;
  readonly identity: AgentIdentity;
  /** Agents whose knowledge to follow: the agent subscribes (push) to each. */
  readonly peers?: readonly string[];
  /** Passed to the agent (graph, visibility policy, ...). */
  readonly agent?: Omit<OCPAgentOptions, "identity" | "link">;
}

/**
 * Joins a team: connects to the hub as `identity`, starts an agent that
 * does not answer other agents' collective queries (it serves a host, it
 * does not speak for the team), and subscribes to each peer's knowledge.
 */
export async function joinTeam(options: JoinTeamOptions): Promise<OCPAgent> {
  const client = new HubClient({ url: options.hubUrl, identity: options.identity });
  await client.connect();
  const agent = new OCPAgent({
    answerQueries: false,
    ...options.agent,
    identity: options.identity,
    link: hubLink(client),
  }).start();
  try {
    for (const peer of options.peers ?? []) await agent.subscribe(peer, { deliveryMode: "push" });
  } catch (error) {
    await agent.close().catch(() => undefined);
    throw error;
  }
  return agent;
}
