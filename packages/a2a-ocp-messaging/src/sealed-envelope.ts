/**
 * §8.4 what a sealed (end-to-end encrypted) message says in clear, and the
 * rule a router applies to it without reading its payload.
 *
 * A sealed message carries the envelope field `ocpSealed` (signed with the
 * rest of the envelope):
 *
 * - `recipients`: exactly the agents that hold a wrapped key
 *   (`payload.recipientKeys[].agentId`), in any order, each once;
 * - `access`: the §8.5 access fields (`createdBy`, `visibility`,
 *   `sharedWith`) of every node and edge the sealed payload carries, each
 *   distinct triple once; empty for a message sealed because it is sensitive.
 *
 * A router (the hub, a peer listener) then decides as it would on the clear
 * payload: every declared recipient must be allowed to see every declared
 * access entry (`mayReceive`), and a message addressed to named agents names
 * only declared recipients. The receiving agent checks, after decrypting,
 * that `access` is exactly what the payload carries, so a sender cannot
 * declare a wider audience than the nodes allow.
 */
import { z } from "zod";
import { fail, ok, type Result } from "./errors.js";
import { MAX_RECIPIENTS, MAX_SEALED_ACCESS_ENTRIES } from "./limits.js";
import { AgentUriSchema } from "./payloads/common.js";
import { VisibilitySchema } from "./payloads/knowledge.js";
import {
  accessControlledNodes,
  mayReceive,
  type NodeAccess,
  type VisibilityPolicy,
} from "./visibility.js";

/** The envelope field of a sealed message. */
export const SEALED_ENVELOPE_FIELD = "ocpSealed";

const AccessEntrySchema = z.strictObject({
  createdBy: AgentUriSchema,
  visibility: z.union([VisibilitySchema, z.string().max(64)]).optional(),
  sharedWith: z.array(AgentUriSchema).max(MAX_RECIPIENTS).optional(),
});

/** `ocpSealed`: who holds a key, and the access fields of what is sealed. */
export const SealedEnvelopeSchema = z
  .strictObject({
    recipients: z.array(AgentUriSchema).min(1).max(MAX_RECIPIENTS),
    access: z.array(AccessEntrySchema).max(MAX_SEALED_ACCESS_ENTRIES),
  })
  .meta({ id: "SealedEnvelope", description: "§8.4 the clear declaration of a sealed message." });
export type SealedEnvelope = z.infer<typeof SealedEnvelopeSchema>;

/** An access entry as declared (its `visibility` may be a level this version does not know). */
export interface DeclaredAccess {
  readonly createdBy: string;
  readonly visibility?: string | undefined;
  readonly sharedWith?: readonly string[] | undefined;
}

function accessKey(entry: DeclaredAccess): string {
  return JSON.stringify([
    entry.createdBy,
    entry.visibility ?? null,
    [...(entry.sharedWith ?? [])].sort(),
  ]);
}

/** The distinct access entries of what `payload` carries, in a stable order. */
export function sealedAccessOf(type: string, sender: string, payload: unknown): NodeAccess[] {
  const seen = new Map<string, NodeAccess>();
  for (const node of accessControlledNodes(type, sender, payload)) {
    const entry: NodeAccess = {
      createdBy: node.createdBy,
      ...(node.visibility === undefined ? {} : { visibility: node.visibility }),
      ...(node.sharedWith === undefined ? {} : { sharedWith: [...node.sharedWith].sort() }),
    };
    seen.set(accessKey(entry), entry);
  }
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, entry]) => entry);
}

/** Whether two access lists name the same entries (order and duplicates aside). */
export function sameAccess(a: readonly DeclaredAccess[], b: readonly DeclaredAccess[]): boolean {
  const left = new Set(a.map(accessKey));
  const right = new Set(b.map(accessKey));
  return left.size === right.size && [...left].every((key) => right.has(key));
}

/**
 * The agents allowed to read every `private` entry with a `sharedWith`
 * (its author and `sharedWith`), or `undefined` when no entry is one: what
 * the agent runtime seals for by default.
 */
export function sealedReaders(access: readonly NodeAccess[]): string[] | undefined {
  let readers: Set<string> | undefined;
  for (const entry of access) {
    if (entry.visibility !== "private" || (entry.sharedWith?.length ?? 0) === 0) continue;
    const allowed = new Set([entry.createdBy, ...(entry.sharedWith ?? [])]);
    readers =
      readers === undefined ? allowed : new Set([...readers].filter((id) => allowed.has(id)));
  }
  return readers === undefined ? undefined : [...readers].sort();
}

/** The `ocpSealed` of a message, parsed; `undefined` when absent or malformed. */
export function sealedEnvelopeOf(message: object): SealedEnvelope | undefined {
  const parsed = SealedEnvelopeSchema.safeParse(Reflect.get(message, SEALED_ENVELOPE_FIELD));
  return parsed.success ? parsed.data : undefined;
}

/**
 * The router's rule for an encrypted message: its `ocpSealed` is well formed
 * and names exactly the holders of a wrapped key (`sealed_envelope_invalid`);
 * every declared recipient may see every declared access entry, and a message
 * to named agents names only declared recipients
 * (`sealed_recipient_not_allowed`). Returns the declared recipients.
 */
export function checkSealedEnvelope(
  message: object,
  policy: VisibilityPolicy,
): Result<SealedEnvelope, "sealed_envelope_invalid" | "sealed_recipient_not_allowed"> {
  const sealed = sealedEnvelopeOf(message);
  if (sealed === undefined) {
    return fail(
      "sealed_envelope_invalid",
      `an encrypted message declares its recipients and access in ${SEALED_ENVELOPE_FIELD}`,
    );
  }
  const payload = Reflect.get(message, "payload") as
    | { recipientKeys?: { agentId?: unknown }[] }
    | undefined;
  const holders = new Set((payload?.recipientKeys ?? []).map((k) => String(k.agentId)));
  const declared = new Set(sealed.recipients);
  if (
    declared.size !== sealed.recipients.length ||
    holders.size !== declared.size ||
    ![...holders].every((id) => declared.has(id))
  ) {
    return fail(
      "sealed_envelope_invalid",
      `${SEALED_ENVELOPE_FIELD}.recipients must name exactly the holders of a wrapped key`,
    );
  }
  for (const recipient of sealed.recipients) {
    if (!mayReceive(sealed.access as NodeAccess[], recipient, policy)) {
      return fail(
        "sealed_recipient_not_allowed",
        `${recipient} may not see what this sealed message declares it carries`,
        { details: { recipient } },
      );
    }
  }
  const to: unknown = Reflect.get(message, "to");
  const named = typeof to === "string" ? (to === "broadcast" ? [] : [to]) : (to as string[]);
  for (const recipient of named ?? []) {
    if (!declared.has(recipient)) {
      return fail(
        "sealed_recipient_not_allowed",
        `${recipient} is addressed but holds no key to this sealed message`,
        { details: { recipient } },
      );
    }
  }
  return ok(sealed);
}
