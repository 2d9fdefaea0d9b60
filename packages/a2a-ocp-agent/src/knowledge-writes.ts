import type { KnowledgeEdge, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { itemSigner } from "@ocp/a2a-ocp-messaging/internal";
import { authorize, type RefusalReason } from "./authority.js";
import type { AgentContext } from "./context.js";
import { agentError } from "./errors.js";
import type { ItemKind } from "./graph.js";
import type { VersionedItem } from "./merge.js";

/**
 * The authority rule (`authority.ts`) applied to this agent's own writes,
 * before anything is written or sent, so that an application learns at once
 * what every receiver would refuse:
 *
 * - An item carrying another agent's `ocpAuthorship` is a relay: it must
 *   verify and be allowed over what the graph holds; it is stored and sent
 *   unchanged (a re-share keeps its author's signature).
 * - Anything else is this agent's edit: `createdBy` and `ocpEditors` default
 *   to the stored item's (an editor's edit keeps them), this agent must be
 *   the author or a listed editor, and the new version is signed by it.
 *
 * A refused write throws an agent error whose code is the refusal reason;
 * nothing of the batch is written.
 */

/** The planned writes of one batch: this agent's edits, and relays kept as they are. */
export interface PlannedWrites<T> {
  readonly own: T[];
  readonly relayed: (T & VersionedItem)[];
}

type Json = Record<string, unknown>;

function stored(ctx: AgentContext, kind: ItemKind, id: string): VersionedItem | undefined {
  return kind === "node" ? ctx.graph.getNode(id) : ctx.graph.getEdge(id);
}

function refuse(reason: RefusalReason, message: string, id: string): never {
  throw agentError(reason, message, { details: { itemId: id } });
}

/** Plans the local write of nodes or edges of one kind; throws on the first refused item. */
export async function planWrites<T extends KnowledgeNode | KnowledgeEdge>(
  ctx: AgentContext,
  kind: ItemKind,
  items: readonly T[],
): Promise<PlannedWrites<T>> {
  const own: T[] = [];
  const relayed: (T & VersionedItem)[] = [];
  for (const item of items) {
    const held = stored(ctx, kind, item.id);
    const authorship = (item as Json)["ocpAuthorship"] as { signer?: unknown } | undefined;
    if (authorship !== undefined && authorship.signer !== ctx.id) {
      const signer = await itemSigner(item as Json, ctx.id, ctx.lookupKey);
      if (!signer.ok) refuse("authorship_invalid", signer.error.message, item.id);
      if (typeof (item as Json)["ocpVersion"] !== "object")
        refuse("authorship_invalid", `relayed ${item.id} has no ocpVersion`, item.id);
      const denied = authorize(held, item as T & VersionedItem, signer.value);
      if (denied !== undefined) refuse(denied.reason, denied.message, item.id);
      relayed.push(item as T & VersionedItem);
      continue;
    }
    const heldJson = held as Json | undefined;
    const edit = {
      ...item,
      createdBy: (item as Json)["createdBy"] ?? heldJson?.["createdBy"] ?? ctx.id,
      ...((item as Json)["ocpEditors"] === undefined && heldJson?.["ocpEditors"] !== undefined
        ? { ocpEditors: heldJson["ocpEditors"] }
        : {}),
    } as T;
    const denied = authorize(held, edit as T & VersionedItem, ctx.id);
    if (denied !== undefined) refuse(denied.reason, denied.message, item.id);
    own.push(edit);
  }
  return { own, relayed };
}

/** Checks that this agent may delete each item (tombstone) it holds; throws on the first refused. */
export function checkDeletions(ctx: AgentContext, kind: ItemKind, ids: readonly string[]): void {
  for (const id of ids) {
    const held = stored(ctx, kind, id);
    if (held === undefined || held.ocpDeleted === true) continue;
    const denied = authorize(held, { ...held, ocpDeleted: true }, ctx.id);
    if (denied !== undefined) refuse(denied.reason, denied.message, id);
  }
}
