/**
 * §8.4 whose encryption key a sealed message is wrapped for: each
 * recipient's X25519 `encryptionKey` as its signed profile (§8.1) publishes
 * it, from the profiles the link's discovery returns (`findAgents`: the
 * hub's, or a peer listener's, verified cards). A key is used for
 * {@link SEALING_KEY_MAX_AGE_MS}, then discovery is asked again, so a key
 * rotated in a re-signed profile is picked up. An agent with no verified
 * profile, or whose profile publishes no key, is `sealing_key_unknown`:
 * the message is not sent, never sent in clear.
 */
import type { FindAgentsQuery, FindAgentsResult } from "@ocp/a2a-ocp-client";
import type { AgentIdentity, AgentProfile } from "@ocp/a2a-ocp-messaging";
import type { EncryptionRecipient } from "@ocp/a2a-ocp-messaging/node";
import { agentError } from "./errors.js";
import { SEALING_KEY_CACHE_MAX_ENTRIES, SEALING_KEY_MAX_AGE_MS } from "./limits.js";

const X25519_KEY_BYTES = 32;

export class RecipientKeys {
  readonly #identity: AgentIdentity;
  readonly #find: ((query: FindAgentsQuery) => Promise<FindAgentsResult>) | undefined;
  readonly #now: () => number;
  readonly #keys = new Map<string, { key: Uint8Array; at: number }>();

  constructor(
    identity: AgentIdentity,
    find: ((query: FindAgentsQuery) => Promise<FindAgentsResult>) | undefined,
    now: () => number,
  ) {
    this.#identity = identity;
    this.#find = find;
    this.#now = now;
  }

  /** Takes the encryption key of a profile whose signature was verified (discovery's cards are). */
  learn(profile: AgentProfile): void {
    if (profile.encryptionKey === undefined) {
      this.#keys.delete(profile.id);
      return;
    }
    const key = new Uint8Array(Buffer.from(profile.encryptionKey, "base64"));
    if (key.length !== X25519_KEY_BYTES) return;
    this.#keys.delete(profile.id);
    if (this.#keys.size >= SEALING_KEY_CACHE_MAX_ENTRIES) {
      this.#keys.delete(this.#keys.keys().next().value as string);
    }
    this.#keys.set(profile.id, { key, at: this.#now() });
  }

  /** The wrapping keys of `agentIds`; rejects `sealing_key_unknown` when one has none. */
  async recipients(agentIds: readonly string[]): Promise<EncryptionRecipient[]> {
    const fresh = (id: string) => {
      const entry = this.#keys.get(id);
      return entry !== undefined && this.#now() - entry.at < SEALING_KEY_MAX_AGE_MS;
    };
    const others = agentIds.filter((id) => id !== this.#identity.id);
    if (others.some((id) => !fresh(id)) && this.#find !== undefined) {
      const found = await this.#find({}).catch(() => undefined);
      for (const profile of found?.agents ?? []) this.learn(profile);
    }
    return agentIds.map((agentId) => {
      if (agentId === this.#identity.id) {
        const own = this.#identity.encryption?.publicKey;
        if (own === undefined) {
          throw agentError("sealing_key_unknown", `${agentId} (this agent) has no encryption key`);
        }
        return { agentId, publicKey: own };
      }
      const entry = this.#keys.get(agentId);
      if (entry === undefined || !fresh(agentId)) {
        throw agentError(
          "sealing_key_unknown",
          `no verified profile of ${agentId} publishes an encryption key`,
          { details: { agentId } },
        );
      }
      return { agentId, publicKey: entry.key };
    });
  }
}
