/**
 * An A2A `AgentExecutor` (the SDK's server interface) that answers the §9.2
 * tasks with an {@link OCPAgent}: a plain A2A client can stream knowledge to
 * it, query it, ask for its vote, share and query awareness, and publish
 * events to its team.
 *
 * Every request becomes an A2A task: `submitted` (with the request in its
 * history), then an artifact with the output as a data part and `completed`;
 * a request it cannot answer ends `rejected` (unknown task, invalid input, a
 * feature this agent does not offer, a vote without a voter) and a failure
 * ends `failed`, each with a text status message and a data part
 * `{ error: { code, message } }`.
 *
 * The caller is the SDK's `ServerCallContext.user` (see {@link callerIdOf}):
 * what it may ask is {@link refusalOf}'s rule (a refused task ends
 * `rejected` with code `unauthenticated` or `forbidden`), what a search
 * returns is §8.5 visibility for its identity (`maySee` under the agent's
 * policy), or `public` nodes only when it is anonymous. Knowledge, awareness,
 * votes and events are recorded as the caller's, never as this agent's.
 */
import { type Message, Role, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import { MAX_FINDINGS_PER_RESPONSE, messageDigest, searchNodes } from "@ocp/a2a-ocp-agent/internal";
import type {
  CollectiveResponsePayload,
  ConsensusProposePayload,
  ConsensusVotePayload,
  KnowledgeEdge,
  KnowledgeNode,
  OcpFeature,
  VisibilityPolicy,
} from "@ocp/a2a-ocp-messaging";
import { maySee } from "@ocp/a2a-ocp-messaging";
import { AUTHORSHIP_FIELD, isPublicNode } from "@ocp/a2a-ocp-messaging/internal";
import { OcpFeatureSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { isOcpError } from "@ocp/types";
import { callerIdOf } from "./auth.js";
import { refusalOf } from "./authorize.js";
import { OCP_EXTENSION_URI } from "./card.js";
import { dataPart, parseTaskRequest, TASK_FEATURES, type TaskRequest, textPart } from "./tasks.js";

/** How this agent votes on a proposal that reaches it as an A2A task; `from` is the authenticated caller (undefined when anonymous). */
export type Voter = (
  proposal: ConsensusProposePayload,
  from: string | undefined,
) =>
  | Promise<{ vote: ConsensusVotePayload["vote"]; reasoning?: string }>
  | { vote: ConsensusVotePayload["vote"]; reasoning?: string };

export interface OcpAgentExecutorOptions {
  agent: OCPAgent;
  /** The features answered over A2A; every OCP feature by default (match the card). */
  features?: readonly OcpFeature[];
  /** Decides votes for `vote_on_proposal`; without it that task is rejected. */
  voter?: Voter;
  /** Called with each request once parsed and authorized, before it is handled; `caller` is undefined when anonymous. */
  onTask?: (request: TaskRequest, caller: string | undefined) => void;
  /** Answer unauthenticated callers (public knowledge and votes only); false by default. */
  allowAnonymous?: boolean;
  /** §8.5 the visibility rules searches apply; the agent's own (`agent.visibility`) by default. */
  visibility?: VisibilityPolicy;
}

class Refusal extends Error {}

export class OcpAgentExecutor implements AgentExecutor {
  readonly #options: OcpAgentExecutorOptions;
  readonly #features: readonly OcpFeature[];

  constructor(options: OcpAgentExecutorOptions) {
    this.#options = options;
    this.#features = options.features ?? OcpFeatureSchema.options;
  }

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = context;
    const user = context.userMessage;
    if (context.task === undefined) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          artifacts: [],
          history: [user],
          metadata: {},
        }),
      );
    }
    const parsed = parseTaskRequest(user);
    if (!parsed.ok) {
      this.#finish(
        bus,
        taskId,
        contextId,
        TaskState.TASK_STATE_REJECTED,
        parsed.error,
        "invalid_task",
      );
      return;
    }
    const request = parsed.value;
    const caller = callerIdOf(context.context.user);
    const feature = TASK_FEATURES[request.task];
    if (!this.#features.includes(feature)) {
      this.#finish(
        bus,
        taskId,
        contextId,
        TaskState.TASK_STATE_REJECTED,
        `${request.task} needs ${feature}, which this agent does not offer`,
        "feature_not_offered",
      );
      return;
    }
    const refusal =
      caller === undefined && this.#options.allowAnonymous !== true
        ? { code: "unauthenticated", message: "this agent answers authenticated callers only" }
        : refusalOf(
            request,
            caller,
            (id) => this.#options.agent.graph.getNode(id),
            (id) => this.#options.agent.graph.getEdge(id)?.source,
          );
    if (refusal !== undefined) {
      this.#finish(
        bus,
        taskId,
        contextId,
        TaskState.TASK_STATE_REJECTED,
        refusal.message,
        refusal.code,
      );
      return;
    }
    this.#options.onTask?.(request, caller);
    try {
      const output = await this.#run(request, caller, taskId);
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: `${request.task}-result`,
            name: `${request.task} result`,
            description: `Output of ${request.task}`,
            parts: [dataPart(output)],
            metadata: undefined,
            extensions: [OCP_EXTENSION_URI],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      );
      this.#finish(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, `${request.task} done`);
    } catch (error) {
      if (error instanceof Refusal) {
        this.#finish(
          bus,
          taskId,
          contextId,
          TaskState.TASK_STATE_REJECTED,
          error.message,
          "refused",
        );
        return;
      }
      const code = isOcpError(error) ? error.code : "internal";
      this.#finish(
        bus,
        taskId,
        contextId,
        TaskState.TASK_STATE_FAILED,
        error instanceof Error ? error.message : String(error),
        code,
      );
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: "",
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
  };

  /** Answers an authorized request: `caller` is who it comes from (undefined: anonymous). */
  async #run(request: TaskRequest, caller: string | undefined, taskId: string): Promise<unknown> {
    const agent = this.#options.agent;
    switch (request.task) {
      case "receive_knowledge": {
        const chunks = request.input.batched === true ? request.input.items : [request.input];
        const nodes = chunks.flatMap((c) => c.nodes);
        const edges = chunks.flatMap((c) => c.edges ?? []);
        // Merged as the caller's own stream would be (the agent's authority rule decides per
        // item); only what carries its author's signature can be streamed on to the team.
        const from = caller;
        if (from === undefined)
          throw new Refusal("receive_knowledge needs an authenticated caller");
        const receipt = {
          messageId: taskId,
          type: `a2a:${request.task}`,
          from,
          digest: messageDigest(request),
        };
        const result = await agent.receiveKnowledge(nodes, edges, from, receipt);
        const signed = result.applied.filter((item) => AUTHORSHIP_FIELD in item);
        const signedNodes = signed.filter((item) => "title" in item) as KnowledgeNode[];
        const signedEdges = signed.filter((item) => !("title" in item)) as KnowledgeEdge[];
        if (signed.length > 0) await agent.streamKnowledge(signedNodes, signedEdges);
        const refused = result.refused.length;
        return refused === 0
          ? { accepted: result.applied.length }
          : { accepted: result.applied.length, refused };
      }
      case "search_and_respond":
        return this.#search(request.input, caller);
      case "vote_on_proposal": {
        const voter = this.#options.voter;
        if (voter === undefined)
          throw new Refusal("this agent takes no votes over A2A (no voter configured)");
        const decision = await voter(request.input, caller);
        const vote: ConsensusVotePayload = {
          proposalId: request.input.proposalId,
          vote: decision.vote,
          votedBy: agent.id,
          ...(decision.reasoning === undefined ? {} : { reasoning: decision.reasoning }),
        };
        return vote;
      }
      case "share_awareness":
        if (caller === undefined)
          throw new Refusal("share_awareness needs an authenticated caller");
        agent.presence.beacon(caller, request.input);
        return { accepted: 1 };
      case "query_awareness":
        return {
          queryId: request.input.queryId,
          agents: agent.presence.query(request.input.filters),
        };
      case "publish_event":
        return agent.publishEvent(
          request.input.eventType,
          request.input.eventData,
          request.input.severity,
          caller === undefined ? {} : { source: caller },
        );
    }
  }

  #search(
    query: Extract<TaskRequest, { task: "search_and_respond" }>["input"],
    caller: string | undefined,
  ): CollectiveResponsePayload {
    const started = Date.now();
    const structured = query.structuredQuery;
    const policy = this.#options.visibility ?? this.#options.agent.visibility;
    const visible =
      caller === undefined
        ? (n: KnowledgeNode) => isPublicNode(n, policy)
        : (n: KnowledgeNode) => maySee(n, caller, policy);
    const { findings, nodesSearched } = searchNodes(
      this.#options.agent.graph.liveNodes().filter(visible),
      query.query,
      {
        keywords: structured?.keywords ?? [],
        domains: structured?.domains ?? [],
        limit: MAX_FINDINGS_PER_RESPONSE,
      },
    );
    const weight = findings.reduce((s, f) => s + f.relevance, 0);
    return {
      queryId: query.queryId,
      findings,
      confidence:
        weight === 0
          ? 0
          : findings.reduce((s, f) => s + f.relevance * f.node.confidence, 0) / weight,
      processingTime: Date.now() - started,
      metadata: { nodesSearched, relevanceScores: findings.map((f) => f.relevance) },
    };
  }

  #finish(
    bus: ExecutionEventBus,
    taskId: string,
    contextId: string,
    state: TaskState,
    text: string,
    errorCode?: string,
  ): void {
    const message: Message = {
      messageId: globalThis.crypto.randomUUID(),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts: [
        textPart(text),
        ...(errorCode === undefined
          ? []
          : [dataPart({ error: { code: errorCode, message: text } })]),
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }
}
