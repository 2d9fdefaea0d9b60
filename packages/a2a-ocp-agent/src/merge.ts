import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { KnowledgeEdge, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { canonicalBytes } from "@ocp/a2a-ocp-messaging/internal";
import { compareVectors, mergeVectors, type VersionVector, vectorSum } from "./version-vector.js";

/**
 * Merging replicated knowledge (§5.1.7). Every node and edge carries two
 * extension fields (§11.2: optional, kept by the loose schemas, covered by
 * signatures): `ocpVersion`, its version vector, and `ocpDeleted`, set on a
 * tombstone. A tombstone keeps the item's last content so that it is still a
 * valid `KnowledgeNode` on the wire.
 *
 * - The incoming version is dominated by (or equal to) ours: ignored.
 * - It dominates ours: it replaces ours.
 * - The two are concurrent: a conflict. Both sides resolve it the same way:
 *   the winner is the version with the highest (1) sum of its vector, then
 *   (2) `createdBy` in code-point order, then (3) SHA-256 of its canonical
 *   JSON (RFC 8785), so the order is total and needs no clock. The resolved
 *   item is the winner's content with the pointwise maximum of both vectors,
 *   so it dominates both and every replica that sees either side converges
 *   on it without reporting the conflict again. A winner that carries an
 *   author signature (`ocpAuthorship`) is the resolution as it is (a merged
 *   vector would void the signature): every replica picks the same winner,
 *   so all converge on it and it stays verifiable when relayed; a replica
 *   that sees the losing version again detects the same conflict (same id),
 *   reported once.
 */

/** A node as replicas store it. */
export type VersionedNode = KnowledgeNode & { ocpVersion: VersionVector; ocpDeleted?: boolean };
/** An edge as replicas store it. */
export type VersionedEdge = KnowledgeEdge & { ocpVersion: VersionVector; ocpDeleted?: boolean };
/** Either kind of replicated item. */
export type VersionedItem = VersionedNode | VersionedEdge;

/** §5.1.7 conflictType. */
export type ConflictType = "content" | "contradiction" | "version";

/** A detected concurrent edit, with its deterministic resolution. */
export interface MergeConflict<T extends VersionedItem> {
  /** Same on every replica: derived from the item id and both versions. */
  readonly conflictId: string;
  readonly local: T;
  readonly remote: T;
  /** `contradiction`: one side deleted what the other edited; `version`: same content; else `content`. */
  readonly conflictType: ConflictType;
  readonly resolved: T;
}

/** What merging one incoming version did. */
export type MergeOutcome<T extends VersionedItem> =
  | { readonly action: "insert" | "replace"; readonly value: T }
  | { readonly action: "keep" }
  | { readonly action: "conflict"; readonly value: T; readonly conflict: MergeConflict<T> };

/** SHA-256 (hex) of the canonical JSON of a value. */
export function canonicalHash(value: unknown): string {
  return bytesToHex(sha256(canonicalBytes(value)));
}

function authorOf(item: VersionedItem): string {
  return typeof (item as { createdBy?: unknown }).createdBy === "string"
    ? (item as { createdBy: string }).createdBy
    : "";
}

/** The content of an item without its replication fields (version, deletion, author signature). */
export function contentOf(item: VersionedItem): Record<string, unknown> {
  const {
    ocpVersion: _v,
    ocpDeleted: _d,
    ocpAuthorship: _a,
    ...rest
  } = item as VersionedItem & Record<string, unknown>;
  return rest;
}

/** Positive when `a` wins over `b` in the deterministic order documented above. */
export function compareForResolution(a: VersionedItem, b: VersionedItem): number {
  const bySum = vectorSum(a.ocpVersion) - vectorSum(b.ocpVersion);
  if (bySum !== 0) return bySum;
  const authorA = authorOf(a);
  const authorB = authorOf(b);
  if (authorA !== authorB) return authorA > authorB ? 1 : -1;
  const hashA = canonicalHash(a);
  const hashB = canonicalHash(b);
  if (hashA === hashB) return 0;
  return hashA > hashB ? 1 : -1;
}

/** Merges an incoming version into the local one (absent when the item is new here). */
export function mergeItem<T extends VersionedItem>(
  local: T | undefined,
  remote: T,
): MergeOutcome<T> {
  if (local === undefined) return { action: "insert", value: remote };
  const order = compareVectors(remote.ocpVersion, local.ocpVersion);
  if (order === "before" || order === "equal") return { action: "keep" };
  if (order === "after") return { action: "replace", value: remote };
  const winner = compareForResolution(remote, local) > 0 ? remote : local;
  // A signed winner stays as signed (a merged vector would void its signature): every replica
  // picks the same winner, so all converge on it, and the next signed edit dominates both.
  const resolved =
    Reflect.get(winner, "ocpAuthorship") !== undefined
      ? winner
      : ({ ...winner, ocpVersion: mergeVectors(local.ocpVersion, remote.ocpVersion) } as T);
  const [first, second] = [canonicalHash(local), canonicalHash(remote)].sort();
  const conflictId = `conflict-${canonicalHash({ id: local.id, versions: [first, second] }).slice(0, 32)}`;
  const localDeleted = local.ocpDeleted === true;
  const remoteDeleted = remote.ocpDeleted === true;
  let conflictType: ConflictType = "content";
  if (localDeleted !== remoteDeleted) conflictType = "contradiction";
  else if (canonicalHash(contentOf(local)) === canonicalHash(contentOf(remote)))
    conflictType = "version";
  return {
    action: "conflict",
    value: resolved,
    conflict: { conflictId, local, remote, conflictType, resolved },
  };
}
