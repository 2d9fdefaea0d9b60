import type { KnowledgeEdge, SyncConflictPayload } from "@ocp/a2a-ocp-messaging";
import { KnowledgeEdgeSchema, KnowledgeNodeSchema } from "@ocp/a2a-ocp-messaging/schemas";
import type { ItemKind } from "./graph.js";

/**
 * A concurrent edit of an edge. §5.1.7 `ocp.knowledge.conflict` carries
 * nodes only, so edge conflicts go on the wire as §5.6.5 `ocp.sync.conflict`
 * with `syncId` = the conflict id and one entry of `type: "knowledge.edge"`
 * (plus the extension fields `conflictId`, `conflictType`,
 * `suggestedResolution`).
 */
export interface EdgeConflict {
  readonly conflictId: string;
  readonly edgeId: string;
  readonly localVersion: KnowledgeEdge;
  readonly remoteVersion: KnowledgeEdge;
  readonly conflictType: "content" | "contradiction" | "version";
  readonly suggestedResolution?: KnowledgeEdge;
}

type SyncConflictEntry = SyncConflictPayload["conflicts"][number];

/** The kind of a sync conflict entry whose `localVersion` is a valid node or edge. */
export function entryKind(entry: SyncConflictEntry): ItemKind | undefined {
  const edge = KnowledgeEdgeSchema.safeParse(entry.localVersion).success;
  if (entry.type === "knowledge.edge") return edge ? "edge" : undefined;
  if (KnowledgeNodeSchema.safeParse(entry.localVersion).success) return "node";
  return edge ? "edge" : undefined;
}
