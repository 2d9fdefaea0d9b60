/**
 * What a check works with: the target's URL, fresh identities, registered
 * raw agents (closed after the check), and signed messages as exact text.
 */
import { randomUUID } from "node:crypto";
import {
  type AgentIdentity,
  createAgentProfile,
  generateIdentity,
  type MessageInit,
} from "@ocp/a2a-ocp-messaging";
import { signedRuntimeMessage } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { FederationTarget } from "./federation-fixture.js";
import { type Peer, register } from "./raw.js";
import type { CheckStatus, CompatibilityCheckSpec } from "./report.js";

/** A check's verdict before the report adds its name, sections and advisory flag. */
export interface Verdict {
  status: CheckStatus;
  evidence: string;
}

export const passed = (evidence: string): Verdict => ({ status: "pass", evidence });
export const failed = (evidence: string): Verdict => ({ status: "fail", evidence });
export const skipped = (evidence: string): Verdict => ({ status: "skipped", evidence });

export interface Check {
  readonly spec: CompatibilityCheckSpec;
  run(context: CheckContext): Promise<Verdict>;
}

/** A message as the exact text sent, with its id. */
export interface Sent {
  id: string;
  text: string;
}

type Init = Omit<MessageInit<never>, "from" | "type" | "payload"> & {
  type: string;
  payload: unknown;
};

export class CheckContext {
  /** The hub's URLs: one, or every hub of a cluster (agents are spread over them in turn). */
  readonly urls: readonly string[];
  /** Bound on each single wait (ack, delivery, close). */
  readonly answerTimeoutMs: number;
  readonly #run = randomUUID().slice(0, 8);
  readonly #peers: Peer[] = [];
  #counter = 0;

  #next = 0;

  /** The federation fixture the hub under test federates with, when given (federation checks). */
  readonly federation: FederationTarget | undefined;

  constructor(
    url: string | readonly string[],
    answerTimeoutMs: number,
    federation?: FederationTarget,
  ) {
    this.urls = typeof url === "string" ? [url] : url;
    this.answerTimeoutMs = answerTimeoutMs;
    this.federation = federation;
  }

  /** The URL for the next connection: each hub of the target in turn. */
  get url(): string {
    const url = this.urls[this.#next % this.urls.length]!;
    this.#next += 1;
    return url;
  }

  /** A fresh identity with a unique `a2a://` URI. */
  identity(name: string): AgentIdentity {
    this.#counter += 1;
    return generateIdentity(`a2a://ocp-test-${this.#run}-${name}-${this.#counter}`);
  }

  /** A fresh identity, registered honestly on a raw socket; closed when the check ends. */
  async join(name: string, lastSeq?: number): Promise<{ id: AgentIdentity; peer: Peer }> {
    const id = this.identity(name);
    return { id, peer: await this.rejoin(id, lastSeq) };
  }

  /**
   * A fresh identity registered with a self-signed profile carrying
   * `claims` (a `team`, a card `visibility`): what the agent says of itself.
   */
  async joinClaiming(
    name: string,
    claims: Record<string, unknown>,
  ): Promise<{ id: AgentIdentity; peer: Peer }> {
    const id = this.identity(name);
    const profile = createAgentProfile(id, { extra: claims }, nativeEd25519);
    const peer = await register(this.url, id, { timeoutMs: this.answerTimeoutMs, profile });
    return { id, peer: this.track(peer) };
  }

  /** Registers `id` again on a new connection. */
  async rejoin(id: AgentIdentity, lastSeq?: number): Promise<Peer> {
    const peer = await register(this.url, id, {
      timeoutMs: this.answerTimeoutMs,
      ...(lastSeq === undefined ? {} : { lastSeq }),
    });
    return this.track(peer);
  }

  /** Closes `peer` when the check ends. */
  track(peer: Peer): Peer {
    this.#peers.push(peer);
    return peer;
  }

  /** A signed message from `from` (built and validated by the message layer), as text. */
  signed(from: AgentIdentity, init: Init, edit?: (value: Record<string, unknown>) => void): Sent {
    const signed =
      edit === undefined
        ? signedRuntimeMessage(from, init, { backend: nativeEd25519 })
        : signedRuntimeMessage(from, init, { backend: nativeEd25519, edit });
    return { id: String(signed["id"]), text: JSON.stringify(signed) };
  }

  /** A unique marker string for payloads. */
  marker(label: string): string {
    this.#counter += 1;
    return `ocp-test-${label}-${this.#run}-${this.#counter}`;
  }

  close(): void {
    for (const peer of this.#peers.splice(0)) peer.close();
  }
}

/** A short quote of a frame for evidence. */
export function excerpt(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** The code of a reject control, or `ack` / the type. */
export function outcome(answer: { type: string; payload: Record<string, unknown> }): string {
  return answer.type === "ocp.hub.reject" ? String(answer.payload["code"]) : "ack";
}
