import {
  type ContextProvider,
  ContextQuerySchema,
  decodeEnvelope,
  describeIssues,
  isOcpError,
  PROTOCOL_VERSION,
  readWireErrorCode,
} from "@ocp/types";
import {
  Inbox,
  type Incoming,
  type Recorded,
  type Session,
  type ShutdownOutcome,
} from "../session.js";
import { within } from "./stdio.js";

/**
 * An in-process provider seen through the same lens as a wire provider: each
 * envelope the suite sends becomes a method call, and what the provider
 * returns becomes the envelope it would have written (serialised to JSON, so
 * the schema check sees exactly what would go on the wire).
 */
export class InProcessSession implements Session {
  readonly label: string;
  readonly #provider: ContextProvider;
  readonly #inbox = new Inbox();
  readonly #record: (entry: Recorded) => void;
  readonly #abort = new AbortController();
  #gone = false;

  constructor(provider: ContextProvider, label: string, record: (entry: Recorded) => void) {
    this.label = label;
    this.#provider = provider;
    this.#record = record;
  }

  #reply(envelope: Record<string, unknown>, context: string): void {
    const raw = JSON.stringify(envelope);
    this.#record({ session: this.label, after: context, raw });
    this.#inbox.push({ kind: "message", raw, decoded: decodeEnvelope(JSON.parse(raw)) });
  }

  send(message: Record<string, unknown> | string, context: string): void {
    if (this.#gone || typeof message === "string") return;
    if (message.type === "handshake") {
      this.#reply(
        {
          type: "handshake_ack",
          protocol_version: this.#provider.protocolVersion ?? PROTOCOL_VERSION,
          provider: this.#provider.info,
          capabilities: this.#provider.capabilities,
        },
        context,
      );
      return;
    }
    if (message.type === "query") void this.#query(message, context);
  }

  async #query(message: Record<string, unknown>, context: string): Promise<void> {
    const id = typeof message.id === "string" ? message.id : undefined;
    const parsed = ContextQuerySchema.safeParse(message.query);
    if (!parsed.success) {
      this.#reply(
        { type: "error", id, code: "bad_request", message: describeIssues(parsed.error) },
        context,
      );
      return;
    }
    try {
      const result = await this.#provider.query(parsed.data, { signal: this.#abort.signal });
      this.#reply({ type: "frames", id, result }, context);
    } catch (error) {
      const code = isOcpError(error) ? readWireErrorCode(error.code) : "internal";
      const text = error instanceof Error ? error.message : String(error);
      this.#reply({ type: "error", id, code, message: text === "" ? code : text }, context);
    }
  }

  next(timeoutMs: number): Promise<Incoming> {
    return this.#inbox.next(timeoutMs);
  }

  async shutdown(timeoutMs: number): Promise<ShutdownOutcome> {
    if (this.#gone) return { kind: "already-gone", code: 0, signal: null };
    this.#gone = true;
    this.#abort.abort(new Error("shutdown"));
    let failure: string | undefined;
    const done = Promise.resolve()
      .then(() => this.#provider.shutdown())
      .then(
        () => true,
        (error: unknown) => {
          failure = error instanceof Error ? error.message : String(error);
          return true;
        },
      );
    const settled = await within(done, timeoutMs);
    if (settled === undefined) return { kind: "ignored", waitedMs: timeoutMs, after: "timeout" };
    if (failure !== undefined) return { kind: "rejected", message: failure };
    return { kind: "exited", code: 0, signal: null };
  }

  async dispose(): Promise<void> {
    this.#gone = true;
    this.#abort.abort(new Error("disposed"));
  }
}
