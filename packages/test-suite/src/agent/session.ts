/**
 * How the suite talks to an agent under test. Each check gets testers:
 * agents of the suite's own, with fresh identities, that send exact text to
 * the agent and collect what the agent sends them. Two ways in:
 *
 * - `--agent ws://…` (§10.4): the agent listens; each tester connects to it
 *   and registers as a peer (ack, signed announcement, registration).
 * - `--agent-cmd`: the suite runs a harness hub and starts the agent; the
 *   agent connects to the hub, and the testers live inside the hub.
 */
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { ANSWER_TIMEOUT_MS, MAX_FRAMES_PER_CONNECTION } from "../limits.js";

/** One application message the agent sent: its exact text and its parsed value. */
export interface Received {
  text: string;
  value: Record<string, unknown>;
}

/**
 * Messages the agent sent to one tester, in arrival order, with bounded
 * waits. At most {@link MAX_FRAMES_PER_CONNECTION} are kept; past that the
 * inbox counts what it dropped (`overflow`), so a flooding agent cannot
 * grow the suite's memory.
 */
export class Inbox {
  readonly messages: Received[] = [];
  /** Messages dropped because the inbox was full. */
  overflow = 0;
  readonly #waiters = new Set<() => void>();

  /** Records `text` when it parses to a message object; other text is ignored. */
  push(text: string): void {
    if (this.messages.length >= MAX_FRAMES_PER_CONNECTION) {
      this.overflow += 1;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    if (!isJsonObject(value)) return;
    this.messages.push({ text, value });
    for (const waiter of [...this.#waiters]) waiter();
  }

  /** Messages of this `type`. */
  ofType(type: string): Received[] {
    return this.messages.filter((m) => m.value["type"] === type);
  }

  /** Resolves with the first defined `find()`, or `undefined` after `timeoutMs`. */
  waitFor<T>(find: () => T | undefined, timeoutMs = ANSWER_TIMEOUT_MS): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve) => {
      const check = () => {
        const found = find();
        if (found !== undefined) {
          done();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        done();
        resolve(undefined);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }
}

/** An agent of the suite's own, talking to the agent under test. */
export interface Tester {
  readonly identity: AgentIdentity;
  readonly inbox: Inbox;
  /** Sends `text` to the agent as is (the agent must judge it). */
  send(text: string): void;
  close(): void;
}

/** A connection to the agent under test, open for the whole run. */
export interface AgentSession {
  /** The agent's `a2a://` id. */
  readonly agentId: string;
  /** The agent's public key, from its verified profile; `undefined` when it gave none. */
  readonly agentKey: Uint8Array | undefined;
  /** The agent's signed profile, verified; `undefined` when it gave none. */
  readonly agentProfile: Record<string, unknown> | undefined;
  /** The base URL of the agent's A2A endpoint when given to the suite (`--agent-a2a`). */
  readonly a2aUrl?: string | undefined;
  /** How the suite reached the agent, for the registration check's evidence. */
  readonly reached: string;
  /** Registers a tester with this identity. */
  tester(identity: AgentIdentity): Promise<Tester>;
  /** Extra evidence for failures (the tail of a child's stderr), or "". */
  diagnostics(): string;
  close(): Promise<void>;
}
