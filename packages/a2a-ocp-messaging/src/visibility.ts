/**
 * §8.5 access control at the hub: which agents may receive a message that
 * carries knowledge nodes. The hub forwards the bytes it verified, so it never
 * edits a message to drop a node: a recipient that may not see every node a
 * message carries does not receive that message at all.
 *
 * Rules for one node and one recipient `r`:
 * - `r` is the node's `createdBy`, or is listed in `sharedWith`: allowed;
 * - `public`: allowed;
 * - `workspace`: allowed (every agent of a hub is in its workspace);
 * - `team`: allowed when `teamOf(r)` equals `teamOf(createdBy)` and is defined;
 * - `private`: nobody else.
 * An absent `visibility` reads as the hub's `defaultVisibility`.
 *
 * Which parts of a message are nodes: {@link accessControlledNodes}.
 */

import { isJsonObject } from "./json.js";
import type { KnowledgeNode, Visibility } from "./payloads/knowledge.js";

/** The access fields of a knowledge node. */
export interface NodeAccess {
  createdBy: string;
  visibility?: Visibility | undefined;
  sharedWith?: readonly string[] | undefined;
}

export interface VisibilityPolicy {
  /** The team of an agent, if it has one. */
  teamOf: (agentId: string) => string | undefined;
  /** What an absent `visibility` means. */
  defaultVisibility: Visibility;
}

/** Whether `recipient` may see `node`. */
export function maySee(node: NodeAccess, recipient: string, policy: VisibilityPolicy): boolean {
  if (node.createdBy === recipient) return true;
  if (node.sharedWith?.includes(recipient) === true) return true;
  switch (node.visibility ?? policy.defaultVisibility) {
    case "public":
    case "workspace":
      return true;
    case "team": {
      const team = policy.teamOf(node.createdBy);
      return team !== undefined && team === policy.teamOf(recipient);
    }
    case "private":
      return false;
    default:
      // Not one of the four levels: nobody but the author and sharedWith (fail closed).
      return false;
  }
}

/**
 * Whether `node` is public: what a caller with no identity (an anonymous A2A
 * caller, where the operator allows one) may see. Nothing else is: not
 * `workspace` (an anonymous caller is in no workspace), `team`, `private`,
 * nor a `sharedWith` grant, which names agents.
 */
export function isPublicNode(node: NodeAccess, policy: VisibilityPolicy): boolean {
  return (node.visibility ?? policy.defaultVisibility) === "public";
}

/**
 * The §8.5 access fields of a knowledge node, read off its schema: every
 * member of `KnowledgeNodeSchema` that decides who may see the node.
 */
export const ACCESS_FIELDS = [
  "createdBy",
  "visibility",
  "sharedWith",
] as const satisfies ReadonlyArray<keyof KnowledgeNode & keyof NodeAccess>;
const [CREATED_BY, VISIBILITY, SHARED_WITH] = ACCESS_FIELDS;

/**
 * Every knowledge node — or anything shaped like one — a payload carries, at
 * any depth, whatever the message type: an object with any of the
 * {@link ACCESS_FIELDS} is access-controlled. This covers every place the
 * payload schemas put a node (streams, batches, sync responses, knowledge
 * and sync conflicts, collective findings, the partial nodes of updates),
 * the `unknown` slots and loose members of any schema, and `ocp.custom.*`
 * payloads, which the hub cannot otherwise vet. Reading rules:
 * - a missing `createdBy` (a partial node of an update) is the sender;
 * - a `visibility` that is not one of the four levels is seen by nobody but
 *   the author and `sharedWith` (fail closed);
 * - a node with `createdBy` only gets the hub's default visibility.
 * Iterative (no recursion on hostile input); the message's JSON depth is
 * already bounded by the inbound stages.
 */
export function accessControlledNodes(
  _type: string,
  sender: string,
  payload: unknown,
): NodeAccess[] {
  const nodes: NodeAccess[] = [];
  const stack: unknown[] = [payload];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (const member of value)
        if (typeof member === "object" && member !== null) stack.push(member);
      continue;
    }
    if (!isJsonObject(value)) continue;
    const object = value;
    if (
      Object.hasOwn(object, CREATED_BY) ||
      Object.hasOwn(object, VISIBILITY) ||
      Object.hasOwn(object, SHARED_WITH)
    ) {
      const createdBy = object[CREATED_BY];
      const sharedWith = object[SHARED_WITH];
      nodes.push({
        createdBy: typeof createdBy === "string" ? createdBy : sender,
        visibility: object[VISIBILITY] as Visibility | undefined,
        sharedWith: Array.isArray(sharedWith)
          ? sharedWith.filter((agent): agent is string => typeof agent === "string")
          : undefined,
      });
    }
    for (const key in object) {
      const member = object[key];
      if (typeof member === "object" && member !== null) stack.push(member);
    }
  }
  return nodes;
}

/** Whether `recipient` may receive a message carrying `nodes`. */
export function mayReceive(
  nodes: readonly NodeAccess[],
  recipient: string,
  policy: VisibilityPolicy,
): boolean {
  for (const node of nodes) if (!maySee(node, recipient, policy)) return false;
  return true;
}
