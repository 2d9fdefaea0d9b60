import type { Ed25519Backend, KeyLookup } from "@ocp/a2a-ocp-messaging";
import {
  AUTHORSHIP_FIELD,
  authorOf,
  claimAllowed,
  editorsOf,
  itemSigner,
} from "@ocp/a2a-ocp-messaging/internal";
import type { ItemKind } from "./graph.js";
import type { VersionedItem } from "./merge.js";

/**
 * Who may change knowledge (docs/a2a-ocp-wire.md, "Authorship of
 * knowledge"): the module that decides *who may* write a node or an edge,
 * beside the message layer's check of *who sent* it.
 *
 * Every incoming item (a stream, an update, a deletion, a sync page, a
 * conflict report) has an effective signer: the verified
 * `ocpAuthorship.signer`, or the message's `from` when the item carries no
 * author signature (a plain a2a+ocp agent streaming its own nodes). The item
 * is merged only when that signer may write it:
 *
 * - a new item: the signer is its `createdBy`;
 * - a stored item: the signer is the stored item's author or one of the
 *   `ocpEditors` the author listed; nobody changes `createdBy`, and only the
 *   author changes `ocpEditors`.
 *
 * Anything else is refused with a {@link RefusalReason}, reported to the
 * application (`refused` event) and never applied.
 */

/** Why an incoming (or local) change of an item was refused. */
export type RefusalReason =
  | "authorship_invalid"
  | "not_author"
  | "author_changed"
  | "editors_changed";

/** A change of knowledge that was not applied, and why. */
export interface KnowledgeRefusal {
  readonly kind: ItemKind;
  readonly itemId: string;
  readonly reason: RefusalReason;
  readonly message: string;
  /** The agent that sent the message the item came in (or this agent, for a local edit). */
  readonly from: string;
  /** The item's effective signer, when its signature verified. */
  readonly signer?: string;
  /** The item's author as this agent holds it (its stored `createdBy`), or as claimed when new. */
  readonly author?: string;
  /** The refused version of the item, as received. */
  readonly item: VersionedItem;
}

/** An incoming item with the agent whose authority it carries. */
export interface SignedItem {
  readonly kind: ItemKind;
  readonly item: VersionedItem;
  readonly signer: string;
}

type Json = Readonly<Record<string, unknown>>;

/** The author of a stored item: its `createdBy`, else its author signature's signer. */
export function storedAuthor(stored: VersionedItem): string | undefined {
  const by = authorOf(stored as Json);
  if (by !== undefined) return by;
  const signed = (stored as Json)[AUTHORSHIP_FIELD] as { signer?: unknown } | undefined;
  return typeof signed?.signer === "string" ? signed.signer : undefined;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
}

/**
 * The rule against what this agent holds: `undefined` when `signer` may
 * write `incoming` over `stored` (absent for a new item), else why not.
 */
export function authorize(
  stored: VersionedItem | undefined,
  incoming: VersionedItem,
  signer: string,
): { reason: RefusalReason; message: string; author?: string } | undefined {
  const claimed = authorOf(incoming as Json) ?? signer;
  if (stored === undefined) {
    if (claimed === signer) return undefined;
    return {
      reason: "not_author",
      message: `${incoming.id} is new here and claims author ${claimed}, but ${signer} wrote it`,
      author: claimed,
    };
  }
  const author = storedAuthor(stored);
  if (author === undefined)
    return { reason: "not_author", message: `${incoming.id} has no known author here` };
  if (claimed !== author)
    return {
      reason: "author_changed",
      message: `${signer} changes the author of ${incoming.id} from ${author} to ${claimed}`,
      author,
    };
  if (signer === author) return undefined;
  if (!editorsOf(stored as Json).includes(signer))
    return {
      reason: "not_author",
      message: `${signer} is neither the author (${author}) of ${incoming.id} nor an editor the author listed`,
      author,
    };
  if (!sameSet(editorsOf(stored as Json), editorsOf(incoming as Json)))
    return {
      reason: "editors_changed",
      message: `editor ${signer} changes the editors of ${incoming.id}; only its author ${author} may`,
      author,
    };
  return undefined;
}

/**
 * Finds the effective signer of each incoming item (verifying author
 * signatures with keys from `lookupKey`); items whose `ocpAuthorship` is
 * malformed, by an unknown agent or forged are refused here.
 */
export async function signersOf(
  items: ReadonlyArray<{ kind: ItemKind; item: VersionedItem }>,
  from: string,
  lookupKey: KeyLookup,
  backend?: Ed25519Backend,
): Promise<{ signed: SignedItem[]; refused: KnowledgeRefusal[] }> {
  const signed: SignedItem[] = [];
  const refused: KnowledgeRefusal[] = [];
  for (const { kind, item } of items) {
    const signer = await itemSigner(item as Json, from, lookupKey, backend);
    // An unsigned edge without createdBy (§5.1.1 edges have none) is recorded as its sender's.
    const unsignedOrphan =
      (item as Json)[AUTHORSHIP_FIELD] === undefined && authorOf(item as Json) === undefined;
    if (signer.ok && unsignedOrphan)
      signed.push({ kind, item: { ...item, createdBy: from } as VersionedItem, signer: from });
    else if (signer.ok) signed.push({ kind, item, signer: signer.value });
    else
      refused.push({
        kind,
        itemId: item.id,
        reason: "authorship_invalid",
        message: signer.error.message,
        from,
        item,
      });
  }
  return { signed, refused };
}

/**
 * Whether this agent (`self`) can send `item` so that receivers accept it:
 * it carries an author signature, or `self` may claim it (its author or a
 * listed editor). An unsigned item of another author (a plain a2a+ocp
 * agent's node) is not relayed: every receiver, and the hub, would refuse it.
 */
export function relayable(item: VersionedItem, self: string): boolean {
  return (item as Json)[AUTHORSHIP_FIELD] !== undefined || claimAllowed(item as Json, self);
}
