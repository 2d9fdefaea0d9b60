import { z } from "zod";
import { fromBase64Exact, toBase64 } from "./base64.js";
import { canonicalizeWithout } from "./canonical.js";
import { SignatureSchema } from "./envelope.js";
import { fail, messagingError, ok, type Result } from "./errors.js";
import { AgentUriSchema } from "./payloads/common.js";
import {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  ED25519_SECRET_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  type Ed25519Backend,
  type KeyLookup,
} from "./signing.js";

/**
 * Authorship of knowledge (docs/a2a-ocp-wire.md, "Authorship of knowledge").
 * A message signature says who sent a message; an author signature says who
 * wrote a node or an edge, so the item stays verifiable as its author's when
 * a third agent relays it (a stream, a sync page). The extension field
 * `ocpAuthorship: { signer, signature }` is an Ed25519 signature by `signer`
 * over the RFC 8785 canonical JSON of the item minus `ocpAuthorship`: it
 * covers the content, `createdBy`, the version (`ocpVersion`), a deletion
 * (`ocpDeleted`) and the editors the author granted (`ocpEditors`), so a
 * relay can change none of them.
 *
 * Who may write an item is decided in two places. Statelessly (the hub, and
 * the first step of an agent's merge): the item's effective signer (its
 * verified `ocpAuthorship.signer`, or the message sender when it has none)
 * must be its `createdBy` or one of its `ocpEditors` ({@link claimAllowed}).
 * Against the stored item (the agent, which holds the graph): the signer
 * must be the stored item's author or one of the editors the author listed,
 * and only the author may change `ocpEditors`; nobody changes `createdBy`.
 */

/** The extension field that carries an item's author signature. */
export const AUTHORSHIP_FIELD = "ocpAuthorship";
/** The extension field listing the agents an item's author lets edit it. */
export const EDITORS_FIELD = "ocpEditors";

/** `ocpAuthorship`: who signed the item, and the signature. */
export const AuthorshipSchema = z
  .strictObject({ signer: AgentUriSchema, signature: SignatureSchema })
  .meta({
    id: "Authorship",
    description:
      "An Ed25519 signature by `signer` over the RFC 8785 canonical JSON of the item minus `ocpAuthorship`.",
  });
export type Authorship = z.infer<typeof AuthorshipSchema>;

/** A node or edge as JSON: any object (the schemas keep extension fields). */
export type Item = Readonly<Record<string, unknown>>;

const encoder = new TextEncoder();

/** The bytes an author signature covers: JCS of the item minus `ocpAuthorship`. */
export function authorshipInput(item: Item): Uint8Array {
  return encoder.encode(canonicalizeWithout(item, AUTHORSHIP_FIELD));
}

/**
 * Signs an item as `signer`: a copy with `ocpAuthorship` set (an existing one
 * is replaced). `secretKey` is the signer's 32-byte Ed25519 seed.
 */
export function signAuthorship<T extends Item>(
  item: T,
  signer: string,
  secretKey: Uint8Array,
  backend: Ed25519Backend = defaultEd25519(),
): T & { ocpAuthorship: Authorship } {
  if (secretKey.length !== ED25519_SECRET_KEY_BYTES) {
    throw messagingError("invalid_key", "an Ed25519 secret key is 32 bytes");
  }
  const { [AUTHORSHIP_FIELD]: _old, ...rest } = item;
  const input = authorshipInput(rest);
  const signature =
    backend.signBase64 !== undefined
      ? backend.signBase64(input, secretKey)
      : toBase64(backend.sign(input, secretKey));
  return { ...rest, [AUTHORSHIP_FIELD]: { signer, signature } } as T & {
    ocpAuthorship: Authorship;
  };
}

/** The item's `createdBy`, when it is a string. */
export function authorOf(item: Item): string | undefined {
  const by = item["createdBy"];
  return typeof by === "string" ? by : undefined;
}

/** The item's `ocpEditors` (empty when absent or not a list of strings). */
export function editorsOf(item: Item): readonly string[] {
  const editors = item[EDITORS_FIELD];
  return Array.isArray(editors) ? editors.filter((e): e is string => typeof e === "string") : [];
}

type SignerCode = "authorship_invalid";

/** Parses `ocpAuthorship` (absent: `undefined`). */
function readAuthorship(item: Item): Result<Authorship | undefined, SignerCode> {
  const raw = item[AUTHORSHIP_FIELD];
  if (raw === undefined) return ok(undefined);
  const parsed = AuthorshipSchema.safeParse(raw);
  if (!parsed.success)
    return fail("authorship_invalid", `item ${String(item["id"])}: malformed ocpAuthorship`, {
      details: { id: item["id"] },
    });
  return ok(parsed.data);
}

/** The verdict once the signer's key is known: the one rule of both variants below. */
function verdict(
  item: Item,
  authorship: Authorship,
  key: Uint8Array | undefined,
  backend: Ed25519Backend,
): Result<string, SignerCode> {
  const details = { id: item["id"], signer: authorship.signer };
  if (key === undefined || key.length !== ED25519_PUBLIC_KEY_BYTES)
    return fail(
      "authorship_invalid",
      `item ${String(item["id"])}: no public key for its signer ${authorship.signer}`,
      { details },
    );
  const signature = fromBase64Exact(authorship.signature, ED25519_SIGNATURE_BYTES);
  let input: Uint8Array;
  try {
    input = authorshipInput(item);
  } catch {
    return fail("authorship_invalid", `item ${String(item["id"])} has no canonical form`, {
      details,
    });
  }
  if (signature === undefined || !backend.verify(signature, input, key))
    return fail(
      "authorship_invalid",
      `item ${String(item["id"])}: the author signature of ${authorship.signer} does not verify`,
      { details },
    );
  return ok(authorship.signer);
}

/**
 * The agent whose authority `item` carries, received in a message from
 * `from`: its `ocpAuthorship.signer` when that signature verifies with the
 * key `keyOf` finds, `from` when the item has no `ocpAuthorship`;
 * `authorship_invalid` when it has one that is malformed, by an unknown
 * signer, or does not verify. Synchronous key lookup (the hub's).
 */
export function itemSignerSync(
  item: Item,
  from: string,
  keyOf: (agentId: string) => Uint8Array | undefined,
  backend: Ed25519Backend = defaultEd25519(),
): Result<string, SignerCode> {
  const read = readAuthorship(item);
  if (!read.ok) return read;
  if (read.value === undefined) return ok(from);
  let key: Uint8Array | undefined;
  try {
    key = keyOf(read.value.signer);
  } catch {
    key = undefined;
  }
  return verdict(item, read.value, key, backend);
}

/** {@link itemSignerSync} with a {@link KeyLookup} that may be asynchronous (an agent's). */
export async function itemSigner(
  item: Item,
  from: string,
  lookupKey: KeyLookup,
  backend: Ed25519Backend = defaultEd25519(),
): Promise<Result<string, SignerCode>> {
  const read = readAuthorship(item);
  if (!read.ok) return read;
  if (read.value === undefined) return ok(from);
  let key: Uint8Array | undefined;
  try {
    key = await lookupKey(read.value.signer);
  } catch {
    key = undefined;
  }
  return verdict(item, read.value, key, backend);
}

/**
 * The stateless part of the rule: whether `signer` may have written `item`
 * as it stands, i.e. is its `createdBy` or one of its `ocpEditors`. An item
 * without `createdBy` (an edge of a plain a2a+ocp sender) is its signer's.
 */
export function claimAllowed(item: Item, signer: string): boolean {
  const author = authorOf(item);
  return author === undefined || author === signer || editorsOf(item).includes(signer);
}

/**
 * The whole stateless check of one item received from `from` (the hub's).
 * An item whose `createdBy` is `from` (or absent) passes: the message
 * signature already says its author sent it, and receivers verify its author
 * signature. Any other must carry an author signature that verifies
 * (`authorship_invalid`) by its `createdBy` or a listed editor (`not_author`).
 */
export function checkItemClaimSync(
  item: Item,
  from: string,
  keyOf: (agentId: string) => Uint8Array | undefined,
  backend: Ed25519Backend = defaultEd25519(),
): Result<string, SignerCode | "not_author"> {
  // The common case costs no signature check: an item its sender wrote.
  const author = authorOf(item);
  if (author === undefined || author === from) return ok(from);
  const signer = itemSignerSync(item, from, keyOf, backend);
  if (!signer.ok) return signer;
  if (!claimAllowed(item, signer.value))
    return fail(
      "not_author",
      `item ${String(item["id"])} of ${authorOf(item)} is signed by ${signer.value}, neither its author nor an editor it lists`,
      { details: { id: item["id"], createdBy: authorOf(item), signer: signer.value } },
    );
  return signer;
}
