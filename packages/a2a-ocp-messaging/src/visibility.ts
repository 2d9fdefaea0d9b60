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
 */
import type { Visibility } from "./payloads/knowledge.js";

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

/** Every node a message carries (streams, batches, sync responses, conflicts, updates), by its payload. */
export function nodesOf(type: string, payload: unknown): NodeAccess[] {
  if (typeof payload !== "object" || payload === null) return [];
  const p = payload as Record<string, unknown>;
  const nodes: NodeAccess[] = [];
  const take = (value: unknown) => {
    if (typeof value === "object" && value !== null && "createdBy" in value) {
      nodes.push(value as NodeAccess);
    }
  };
  const takeAll = (value: unknown) => {
    if (Array.isArray(value)) for (const node of value) take(node);
  };
  switch (type) {
    case "ocp.knowledge.stream":
      if (p["batched"] === true && Array.isArray(p["items"])) {
        for (const item of p["items"]) takeAll((item as Record<string, unknown>)["nodes"]);
      } else takeAll(p["nodes"]);
      break;
    case "ocp.knowledge.sync.response":
      takeAll(p["nodes"]);
      break;
    case "ocp.knowledge.conflict":
      take(p["localVersion"]);
      take(p["remoteVersion"]);
      take(p["suggestedResolution"]);
      break;
    default:
      break;
  }
  return nodes;
}

/**
 * Whether a knowledge update may go to `recipient`: the changes of an
 * update name node ids only, so the hub applies the access fields a change
 * carries (a change that sets `visibility`/`sharedWith`/`createdBy`), reading
 * an absent `createdBy` as the sender.
 */
export function updateNodes(sender: string, payload: unknown): NodeAccess[] {
  if (typeof payload !== "object" || payload === null) return [];
  const updates = (payload as Record<string, unknown>)["updates"];
  if (!Array.isArray(updates)) return [];
  const nodes: NodeAccess[] = [];
  for (const update of updates) {
    const changes = (update as Record<string, unknown>)["changes"] as
      | Record<string, unknown>
      | undefined;
    if (changes === undefined) continue;
    const access: NodeAccess = {
      createdBy: typeof changes["createdBy"] === "string" ? changes["createdBy"] : sender,
      visibility: changes["visibility"] as Visibility | undefined,
      sharedWith: changes["sharedWith"] as string[] | undefined,
    };
    if (access.visibility !== undefined || access.sharedWith !== undefined) nodes.push(access);
  }
  return nodes;
}

/** The nodes of a message whose access the hub checks per recipient. */
export function accessControlledNodes(
  type: string,
  sender: string,
  payload: unknown,
): NodeAccess[] {
  if (type === "ocp.knowledge.update") return updateNodes(sender, payload);
  return nodesOf(type, payload);
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
