/**
 * What an A2A caller may ask of an OCP agent, by who it authenticated as.
 *
 * - Nobody speaks for another agent: a `from` in the request, a node's
 *   `createdBy` and an event's `source` must all be the caller's own
 *   `a2a://` URI, and a caller cannot overwrite a node (or an edge from a
 *   node) another agent authored.
 * - An anonymous caller (only where the operator allows one) claims no
 *   identity at all and may only search public knowledge and ask for a vote
 *   ({@link ANONYMOUS_TASKS}); it can push neither knowledge, awareness nor
 *   events, nor read the presence table.
 *
 * What a search returns is decided by §8.5 visibility in the executor.
 */
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import type { A2ATaskName, TaskRequest } from "./tasks.js";

/** The tasks an anonymous caller may ask for. */
export const ANONYMOUS_TASKS: readonly A2ATaskName[] = ["search_and_respond", "vote_on_proposal"];

/** Why a task is refused: no identity, or the wrong one. */
export interface TaskRefusal {
  code: "unauthenticated" | "forbidden";
  message: string;
}

/** Reads the agent's graph (the node of an id, deleted ones included). */
export type NodeReader = (id: string) => Pick<KnowledgeNode, "createdBy"> | undefined;

/** Why `caller` (undefined: anonymous) may not have `request` answered; undefined when it may. */
export function refusalOf(
  request: TaskRequest,
  caller: string | undefined,
  nodeOf: NodeReader,
  edgeSourceOf: (edgeId: string) => string | undefined,
): TaskRefusal | undefined {
  if (caller === undefined) {
    if (request.from !== undefined)
      return {
        code: "unauthenticated",
        message: `an anonymous caller cannot claim to be ${request.from}: authenticate as it`,
      };
    if (!ANONYMOUS_TASKS.includes(request.task))
      return {
        code: "unauthenticated",
        message: `${request.task} needs an authenticated caller (anonymous callers may only ${ANONYMOUS_TASKS.join(" and ")})`,
      };
    return undefined;
  }
  if (request.from !== undefined && request.from !== caller)
    return {
      code: "forbidden",
      message: `the request claims to come from ${request.from}, but the caller authenticated as ${caller}`,
    };
  switch (request.task) {
    case "receive_knowledge":
      return knowledgeRefusal(request.input, caller, nodeOf, edgeSourceOf);
    case "publish_event":
      return request.input.source !== caller
        ? {
            code: "forbidden",
            message: `the event's source is ${request.input.source}, but the caller authenticated as ${caller}`,
          }
        : undefined;
    default:
      return undefined;
  }
}

function knowledgeRefusal(
  input: Extract<TaskRequest, { task: "receive_knowledge" }>["input"],
  caller: string,
  nodeOf: NodeReader,
  edgeSourceOf: (edgeId: string) => string | undefined,
): TaskRefusal | undefined {
  const chunks = input.batched === true ? input.items : [input];
  const nodes = chunks.flatMap((c) => c.nodes);
  const forged = nodes.filter((n) => n.createdBy !== caller);
  if (forged.length > 0)
    return {
      code: "forbidden",
      message: `a caller sends only knowledge it authored: node ${forged[0]?.id} has createdBy ${forged[0]?.createdBy}, the caller is ${caller}`,
    };
  const taken = nodes.find((n) => {
    const existing = nodeOf(n.id)?.createdBy;
    return existing !== undefined && existing !== caller;
  });
  if (taken !== undefined)
    return {
      code: "forbidden",
      message: `node ${taken.id} exists here, authored by ${nodeOf(taken.id)?.createdBy}: ${caller} cannot overwrite it`,
    };
  const own = new Set(nodes.map((n) => n.id));
  const authored = (id: string) => own.has(id) || nodeOf(id)?.createdBy === caller;
  for (const edge of chunks.flatMap((c) => c.edges ?? [])) {
    const existingSource = edgeSourceOf(edge.id);
    if (!authored(edge.source) || (existingSource !== undefined && !authored(existingSource)))
      return {
        code: "forbidden",
        message: `edge ${edge.id}: a caller adds edges only from nodes it authored`,
      };
  }
  return undefined;
}
