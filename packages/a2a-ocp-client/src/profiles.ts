/**
 * The client's directory of sender keys: verified profiles, cached, fetched
 * from the hub on first sight of a sender (`ocp.hub.lookup` →
 * `ocp.hub.profile`). A profile is only ever used after its self-signature
 * verified; an unknown agent resolves to no key (`unknown_sender`). When the
 * sender's card is hidden from us (§8.5) the hub answers its key alone, which
 * we take as the hub vouches for it — the same trust as in the id a profile
 * names (a self-signed profile proves the key holder wrote it, not the id).
 */

import { type AgentProfile, verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { encodeHubControl, HUB_TYPES, profilePublicKey } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { OcpError } from "@ocp/types";
import { CLIENT_LOOKUP_TIMEOUT_MS, CLIENT_PROFILE_CACHE_MAX_ENTRIES } from "./limits.js";

interface Waiting {
  promise: Promise<Uint8Array | undefined>;
  resolve: (key: Uint8Array | undefined) => void;
  timer: NodeJS.Timeout;
}

export class ProfileDirectory {
  readonly #keys = new Map<string, Uint8Array>();
  readonly #waiting = new Map<string, Waiting>();
  readonly #send: (frame: string) => unknown;

  constructor(send: (frame: string) => unknown) {
    this.#send = send;
  }

  /** Adds a profile already verified. */
  add(profile: AgentProfile): void {
    this.#remember(profile.id, profilePublicKey(profile));
  }

  #remember(agentId: string, key: Uint8Array): void {
    if (this.#keys.size >= CLIENT_PROFILE_CACHE_MAX_ENTRIES) {
      this.#keys.delete(this.#keys.keys().next().value as string);
    }
    this.#keys.set(agentId, key);
  }

  /** The key of `agentId`: cached, or asked of the hub. */
  keyOf(agentId: string): Uint8Array | undefined | Promise<Uint8Array | undefined> {
    const key = this.#keys.get(agentId);
    if (key !== undefined) return key;
    const waiting = this.#waiting.get(agentId);
    if (waiting !== undefined) return waiting.promise;
    let resolve!: (key: Uint8Array | undefined) => void;
    const promise = new Promise<Uint8Array | undefined>((r) => {
      resolve = r;
    });
    const timer = setTimeout(() => this.#settle(agentId, undefined), CLIENT_LOOKUP_TIMEOUT_MS);
    timer.unref();
    this.#waiting.set(agentId, { promise, resolve, timer });
    this.#send(encodeHubControl(HUB_TYPES.LOOKUP, { agentId }));
    return promise;
  }

  /** The hub's answer to a lookup; a profile is verified before use, a key alone is taken as the hub's. */
  answer(agentId: string, profile: unknown, publicKey?: string): void {
    if (profile === undefined) {
      const key =
        publicKey === undefined ? undefined : Uint8Array.from(Buffer.from(publicKey, "base64"));
      if (key?.length === 32) this.#remember(agentId, key);
      this.#settle(agentId, key?.length === 32 ? key : undefined);
      return;
    }
    const verified = verifyAgentProfile(profile, nativeEd25519);
    if (!verified.ok || verified.value.id !== agentId) {
      this.#settle(agentId, undefined);
      return;
    }
    this.add(verified.value);
    this.#settle(agentId, this.#keys.get(agentId));
  }

  /** Asks again for every outstanding lookup (after a reconnect). */
  resend(): void {
    for (const agentId of this.#waiting.keys()) {
      this.#send(encodeHubControl(HUB_TYPES.LOOKUP, { agentId }));
    }
  }

  /** Ends every outstanding lookup with no key. */
  fail(_error: OcpError): void {
    for (const agentId of [...this.#waiting.keys()]) this.#settle(agentId, undefined);
  }

  #settle(agentId: string, key: Uint8Array | undefined): void {
    const waiting = this.#waiting.get(agentId);
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    this.#waiting.delete(agentId);
    waiting.resolve(key);
  }
}
