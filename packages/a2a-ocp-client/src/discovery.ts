/**
 * §7.3 `findAgents` over the wire: the client's side of
 * `ocp.hub.discovery.query` → `ocp.hub.discovery.result`. Each card of the
 * answer is verified (its self-signature, §8.1) before it is handed out; a
 * card that fails is left out and counted in `unverified`. A query the hub
 * refuses rejects with the hub's code (`hub_frame_invalid`), one it does not
 * answer in time with `hub_timeout`.
 */
import { randomUUID } from "node:crypto";
import { type AgentProfile, verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import {
  type DiscoveryQueryPayload,
  encodeHubControl,
  HUB_TYPES,
  type HubControl,
} from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { OcpError } from "@ocp/types";
import { clientError, hubRejection } from "./errors.js";

/** What to look for: every given criterion must match (§7.3). */
export type FindAgentsQuery = Omit<DiscoveryQueryPayload, "queryId">;

export interface FindAgentsResult {
  /** The matching agents' verified cards (signed profiles), in agent id order. */
  agents: AgentProfile[];
  /** More agents matched than the hub sent (the query's `limit`, or the frame's size). */
  truncated: boolean;
  /** Cards the hub sent that failed verification (left out). */
  unverified: number;
}

interface Waiting {
  resolve: (result: FindAgentsResult) => void;
  reject: (error: OcpError) => void;
  timer: NodeJS.Timeout;
}

export class DiscoveryRequests {
  readonly #waiting = new Map<string, Waiting>();
  readonly #send: (frame: string) => string;
  readonly #learn: (profile: AgentProfile) => void;

  constructor(send: (frame: string) => string, learn: (profile: AgentProfile) => void) {
    this.#send = send;
    this.#learn = learn;
  }

  /** Sends a query; resolves with the hub's answer. */
  ask(query: FindAgentsQuery, timeoutMs: number): Promise<FindAgentsResult> {
    const queryId = `discovery-${randomUUID()}`;
    return new Promise<FindAgentsResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(queryId);
        reject(clientError("hub_timeout", `no discovery result within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      this.#waiting.set(queryId, { resolve, reject, timer });
      const frame = encodeHubControl(HUB_TYPES.DISCOVERY_QUERY, { ...query, queryId });
      if (this.#send(frame) === "closed") {
        this.refuse(queryId, clientError("not_connected", "no connection to the hub"));
      }
    });
  }

  /** Takes a hub control frame meant for discovery (a result, or the reject of a query); false for others. */
  handle(control: HubControl): boolean {
    if (control.type === HUB_TYPES.DISCOVERY_RESULT) {
      const { queryId, cards, truncated } = control.payload;
      this.answer(queryId, cards, truncated);
      return true;
    }
    if (control.type !== HUB_TYPES.REJECT || control.payload.id === undefined) return false;
    if (!this.#waiting.has(control.payload.id)) return false;
    const { id, code, message, details = {} } = control.payload;
    this.refuse(id, hubRejection(code, message, details));
    return true;
  }

  /** The hub's `ocp.hub.discovery.result`. */
  answer(queryId: string, cards: readonly unknown[], truncated: boolean): void {
    const waiting = this.#take(queryId);
    if (waiting === undefined) return;
    const agents: AgentProfile[] = [];
    for (const card of cards) {
      const verified = verifyAgentProfile(card, nativeEd25519);
      if (!verified.ok) continue;
      agents.push(verified.value);
      this.#learn(verified.value);
    }
    waiting.resolve({ agents, truncated, unverified: cards.length - agents.length });
  }

  /** The hub refused query `queryId`. */
  refuse(queryId: string, error: OcpError): void {
    this.#take(queryId)?.reject(error);
  }

  /** Ends every outstanding query with `error` (the connection ended). */
  fail(error: OcpError): void {
    for (const queryId of [...this.#waiting.keys()]) this.refuse(queryId, error);
  }

  #take(queryId: string): Waiting | undefined {
    const waiting = this.#waiting.get(queryId);
    if (waiting === undefined) return undefined;
    clearTimeout(waiting.timer);
    this.#waiting.delete(queryId);
    return waiting;
  }
}
