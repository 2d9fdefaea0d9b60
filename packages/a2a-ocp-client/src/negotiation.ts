/**
 * §7.2 negotiation with the hub, client side. The hub names itself in the
 * `ocp.connection.registered` payload (`hub: {id, publicKey, profile}`); the
 * client sends a signed `capability.announce` to that id, and the hub answers
 * with a `capability.confirm` signed by its key (`correlation_id` = the
 * announce's id). From then on a message of a feature not confirmed is
 * refused locally with `feature_not_negotiated` (the hub refuses it too).
 */
import type {
  AgentProfile,
  CapabilityConfirmPayload,
  EncryptedMessage,
  PlainMessage,
} from "@ocp/a2a-ocp-messaging";
import { featureOfType, isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import type { OcpError } from "@ocp/types";
import { clientError } from "./errors.js";

/** The hub's identity as its registration frame gives it. */
export interface HubInfo {
  id: string;
  /** Base64 Ed25519 public key: what the hub signs confirms and notifications with. */
  publicKey: string;
  profile: AgentProfile | undefined;
}

/** `payload.hub` of a registration, when well-formed. */
export function hubInfoOf(payload: Record<string, unknown>): HubInfo | undefined {
  const hub = payload["hub"];
  if (!isJsonObject(hub)) return undefined;
  if (typeof hub["id"] !== "string" || typeof hub["publicKey"] !== "string") return undefined;
  const profile = hub["profile"] as AgentProfile | undefined;
  return { id: hub["id"], publicKey: hub["publicKey"], profile };
}

interface Waiting {
  resolve: (confirm: CapabilityConfirmPayload) => void;
  reject: (error: OcpError) => void;
  timer: NodeJS.Timeout;
}

export class Negotiation {
  #confirmed: Set<string> | undefined;
  readonly #waiting = new Map<string, Waiting>();

  /** The features the hub confirmed; `undefined` before any negotiation. */
  get confirmed(): ReadonlySet<string> | undefined {
    return this.#confirmed;
  }

  /** Waits for the confirm answering the announce `announceId`. */
  expect(announceId: string, timeoutMs: number): Promise<CapabilityConfirmPayload> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(announceId);
        reject(clientError("hub_timeout", `no capability.confirm within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      this.#waiting.set(announceId, { resolve, reject, timer });
    });
  }

  /** Takes a verified message; true when it was the hub's confirm of a pending announce. */
  observe(message: PlainMessage | EncryptedMessage, hubId: string | undefined): boolean {
    if (message.type !== "capability.confirm" || message.from !== hubId) return false;
    const id = message.correlation_id;
    const waiting = id === undefined ? undefined : this.#waiting.get(id);
    if (waiting === undefined || id === undefined) return false;
    this.#waiting.delete(id);
    clearTimeout(waiting.timer);
    const payload = message.payload as CapabilityConfirmPayload;
    this.#confirmed = new Set(payload.supportedFeatures);
    waiting.resolve(payload);
    return true;
  }

  /** Why a message of `type` may not be sent, when its feature was not confirmed. */
  refusal(type: string): OcpError | undefined {
    const feature = featureOfType(type);
    if (feature === undefined || this.#confirmed === undefined || this.#confirmed.has(feature)) {
      return undefined;
    }
    return clientError(
      "feature_not_negotiated",
      `${type} needs the feature ${feature}, which the hub did not confirm (§7.2)`,
      { details: { feature, confirmed: [...this.#confirmed] } },
    );
  }

  /** Ends every pending negotiation with `error`. */
  fail(error: OcpError): void {
    for (const [id, waiting] of this.#waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
      this.#waiting.delete(id);
    }
  }
}
