/**
 * What an agent check works with: the session to the agent under test,
 * fresh testers (closed after the check), signed messages as exact text,
 * knowledge nodes with unique words, and collective queries.
 *
 * The suite seeds knowledge by sending `ocp.knowledge.stream` to the agent,
 * and observes the agent's knowledge through its answers to
 * `ocp.collective.query` (§5.2). A check that needs seeding skips, with
 * the reason, when the agent does not serve knowledge streamed to it.
 */
import { randomUUID } from "node:crypto";
import { type AgentIdentity, verifyObject } from "@ocp/a2a-ocp-messaging";
import { signedRuntimeMessage } from "@ocp/a2a-ocp-messaging/internal";
import { generateIdentityWithEncryption, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { Verdict } from "../context.js";
import { QUERY_TIMEOUT_MS } from "../limits.js";
import type { CompatibilityCheckSpec } from "../report.js";
import type { AgentSession, Received, Tester } from "./session.js";

export interface AgentCheck {
  readonly spec: CompatibilityCheckSpec;
  run(context: AgentCheckContext): Promise<Verdict>;
}

export interface Sent {
  id: string;
  text: string;
}

export type Node = Record<string, unknown> & { id: string };

/** An answer to a collective query: the message and how long it took. */
export interface Answer {
  message: Received;
  ms: number;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export class AgentCheckContext {
  readonly session: AgentSession;
  readonly answerTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly #run = randomUUID().slice(0, 8);
  readonly #testers: Tester[] = [];
  #counter = 0;

  constructor(session: AgentSession, answerTimeoutMs: number) {
    this.session = session;
    this.answerTimeoutMs = answerTimeoutMs;
    this.queryTimeoutMs = Math.min(QUERY_TIMEOUT_MS, answerTimeoutMs);
  }

  get agentId(): string {
    return this.session.agentId;
  }

  identity(name: string): AgentIdentity {
    this.#counter += 1;
    // With an X25519 key in its profile, so a tester can receive sealed messages (§8.4).
    return generateIdentityWithEncryption(`a2a://ocp-test-${this.#run}-${name}-${this.#counter}`);
  }

  /** A fresh tester registered with the agent; closed when the check ends. */
  async tester(name: string): Promise<Tester> {
    const tester = await this.session.tester(this.identity(name));
    this.#testers.push(tester);
    return tester;
  }

  /** A signed message from `from`, built and validated by the message layer, as text. */
  signed(
    from: AgentIdentity,
    type: string,
    to: string,
    payload: unknown,
    edit?: (value: Record<string, unknown>) => void,
  ): Sent {
    const draft = { type, to, payload };
    const signed =
      edit === undefined
        ? signedRuntimeMessage(from, draft, { backend: nativeEd25519 })
        : signedRuntimeMessage(from, draft, { backend: nativeEd25519, edit });
    return { id: String(signed["id"]), text: JSON.stringify(signed) };
  }

  /** Sends a signed message from `tester` to the agent. */
  send(tester: Tester, type: string, payload: unknown): Sent {
    const sent = this.signed(tester.identity, type, this.agentId, payload);
    tester.send(sent.text);
    return sent;
  }

  /** A unique word of letters only (no search tokenizer splits it, none confuses it). */
  word(): string {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(10));
    return `ocpt${[...bytes].map((b) => LETTERS[b % 26]).join("")}`;
  }

  /** A §5.1.1 knowledge node by `creator` whose only distinctive word is `word`. */
  node(creator: Tester, word: string, extra: Record<string, unknown> = {}): Node {
    return {
      id: randomUUID(),
      type: "ocp-test.fact",
      title: word,
      description: `compatibility fact ${word}`,
      data: { word },
      confidence: 0.9,
      timestamp: new Date().toISOString(),
      createdBy: creator.identity.id,
      tags: ["ocp-test"],
      ...extra,
    };
  }

  /** Streams `nodes` from `tester` to the agent (§5.1.1). */
  stream(tester: Tester, nodes: Node[]): Sent {
    this.#counter += 1;
    return this.send(tester, "ocp.knowledge.stream", {
      streamId: `ocp-test-stream-${this.#run}-${this.#counter}`,
      nodes,
      isIncremental: true,
      sequenceNumber: this.#counter,
    });
  }

  /** Asks the agent `text` (§5.2.1); the answer with that queryId, or undefined past the timeout. */
  async query(tester: Tester, text: string): Promise<Answer | undefined> {
    const queryId = `ocp-test-query-${randomUUID()}`;
    const started = performance.now();
    this.send(tester, "ocp.collective.query", {
      queryId,
      query: text,
      timeout: this.queryTimeoutMs,
    });
    const message = await tester.inbox.waitFor(
      () =>
        tester.inbox
          .ofType("ocp.collective.response")
          .find((m) => (m.value["payload"] as { queryId?: unknown })?.queryId === queryId),
      this.queryTimeoutMs,
    );
    return message === undefined
      ? undefined
      : { message, ms: Math.round(performance.now() - started) };
  }

  /** The ids of the nodes an answer's findings carry. */
  findingIds(answer: Answer): string[] {
    const findings = (answer.message.value["payload"] as { findings?: unknown })?.findings;
    if (!Array.isArray(findings)) return [];
    return findings.flatMap((f) => {
      const id = (f as { node?: { id?: unknown } })?.node?.id;
      return typeof id === "string" ? [id] : [];
    });
  }

  /** Whether the agent's signature on `message` verifies; `undefined` when its key is unknown. */
  signedByAgent(message: Received): boolean | undefined {
    if (this.session.agentKey === undefined) return undefined;
    return (
      message.value["from"] === this.agentId &&
      typeof message.value["signature"] === "string" &&
      verifyObject(message.value, this.session.agentKey, nativeEd25519)
    );
  }

  /**
   * Proves the agent serves knowledge streamed to it: `tester` streams
   * `nodes` plus a public probe node, then asks for the probe's word (the
   * same connection, so after the stream). `undefined` when it serves it,
   * else the reason the calling check skips.
   */
  async seed(tester: Tester, nodes: Node[]): Promise<string | undefined> {
    const word = this.word();
    const probe = this.node(tester, word);
    this.stream(tester, [...nodes, probe]);
    const answer = await this.query(tester, word);
    if (answer === undefined)
      return `the agent answered no collective query within ${this.queryTimeoutMs} ms, so its knowledge cannot be observed (see agent-collective-query)`;
    if (!this.findingIds(answer).includes(probe.id))
      return "the agent did not serve knowledge streamed to it (a public node it was sent is not among its findings), so this cannot be observed";
    return undefined;
  }

  close(): void {
    for (const tester of this.#testers.splice(0)) tester.close();
  }
}
