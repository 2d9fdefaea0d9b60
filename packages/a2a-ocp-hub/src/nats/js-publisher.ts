/**
 * Pipelined JetStream publishing for the store's commits: every publish goes
 * out on the shared connection with a reply subject under one wildcard
 * subscription, and its ack (`{"stream","seq","duplicate"}`) resolves it.
 * `js.publish` of `@nats-io/jetstream` does the same through a request per
 * message (a request object, an `Error` captured for its stack and a timer
 * each); on a hub committing thousands of messages a second that is a
 * visible share of its CPU (issue 18). Here the project's {@link Deadlines}
 * (one timer for every outstanding ack, exact deadlines) bounds each by
 * {@link NATS_REQUEST_TIMEOUT_MS}.
 *
 * A publish resolves only with JetStream's ack: the message is stored (file
 * storage, on a majority of the stream's replicas). After a reconnect (a NATS
 * node died), every publish still waiting is published again with its
 * `Nats-Msg-Id`; when the stream reports the retry a duplicate, the first copy
 * was stored and the retry resolves with its sequence number. While
 * JetStream answers "unavailable" (503: no responders, a stream leader being
 * elected), the publish is sent again every {@link NATS_PUBLISH_RETRY_MS}. A timeout
 * ({@link NATS_REQUEST_TIMEOUT_MS} from the first publish), an error reply,
 * a closed connection or no JetStream at all rejects it.
 */
import { createInbox, type Msg, type MsgHdrs, type NatsConnection } from "@nats-io/transport-node";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { OcpError } from "@ocp/types";
import { type Deadline, Deadlines } from "@ocp/types/internal";
import { hubError } from "../errors.js";
import {
  NATS_PUBLISH_RETRY_MS,
  NATS_RECONNECT_GRACE_MS,
  NATS_REQUEST_TIMEOUT_MS,
} from "./limits.js";

/** What JetStream answered to one publish. */
export interface JsAck {
  stream: string;
  seq: number;
  duplicate: boolean;
}

interface Outstanding {
  resolve: (ack: JsAck) => void;
  reject: (error: Error) => void;
  /** Rejects it at `timer.at`; a retry is sent only if its ack can still come before. */
  timer: Deadline;
  subject: string;
  data: string | Uint8Array;
  headers: MsgHdrs;
  /** Published again after a reconnect. */
  retried: boolean;
}

const decoder = new TextDecoder();

/** Reads one reply of JetStream to a publish: the ack, or the error it stands for. */
export function parseJsAck(msg: Pick<Msg, "data" | "headers">): JsAck | Error {
  const code = msg.headers?.code ?? 0;
  if (msg.data.length === 0) {
    return code === 503
      ? hubError("store_failed", "JetStream is not available (no responders)", {
          details: { status: 503 },
        })
      : hubError("store_failed", `JetStream answered an empty reply (status ${code})`);
  }
  let reply: unknown;
  try {
    reply = JSON.parse(decoder.decode(msg.data));
  } catch {
    return hubError("store_failed", "JetStream answered with something other than JSON");
  }
  const r = isJsonObject(reply) ? reply : {};
  const error = r["error"] as
    | { code?: unknown; description?: unknown; err_code?: unknown }
    | undefined;
  if (error !== undefined) {
    return hubError(
      "store_failed",
      `JetStream refused the publish: ${String(error.description ?? "unknown error")}`,
      { details: { errCode: error.err_code, status: error.code } },
    );
  }
  const seq = r["seq"];
  if (typeof r["stream"] !== "string" || !Number.isSafeInteger(seq) || (seq as number) < 1) {
    return hubError("store_failed", "JetStream answered an ack without stream and seq");
  }
  return { stream: r["stream"], seq: seq as number, duplicate: r["duplicate"] === true };
}

export class JsPublisher {
  readonly #nc: NatsConnection;
  readonly #prefix: string;
  readonly #outstanding = new Map<number, Outstanding>();
  readonly #timeoutMs: number;
  readonly #reconnectGraceMs: number;
  /** The connection is lost or stale, not yet reconnected. */
  #down = false;
  /** The ack deadlines; a hub's NATS connection holds the process, these do not. */
  readonly #deadlines = new Deadlines({ holdsProcess: false });
  #next = 0;
  #closed = false;

  constructor(
    nc: NatsConnection,
    timeoutMs = NATS_REQUEST_TIMEOUT_MS,
    reconnectGraceMs = NATS_RECONNECT_GRACE_MS,
  ) {
    this.#nc = nc;
    this.#timeoutMs = timeoutMs;
    this.#reconnectGraceMs = reconnectGraceMs;
    this.#prefix = `${createInbox()}.`;
    nc.subscribe(`${this.#prefix}*`, {
      callback: (error, msg) => {
        if (error !== null) return this.#failAll(error);
        this.#settle(msg);
      },
    });
    // A lost connection loses the acks on it: once reconnected (to another node of the
    // cluster), what still waits is published again with the same `Nats-Msg-Id`. Until
    // then, new publishes are refused at once and those in flight wait the grace at most.
    (async () => {
      for await (const status of nc.status()) {
        if (status.type === "disconnect" || status.type === "staleConnection") this.#lost();
        else if (status.type === "reconnect") {
          this.#down = false;
          this.#republish();
        }
      }
    })().catch(() => undefined);
    // The connection's end rejects every publish still waiting for its ack.
    nc.closed().then(
      (error) => this.#failAll(error ?? hubError("store_failed", "the NATS connection closed")),
      () => undefined,
    );
  }

  /** Whether the connection is up (not lost or stale, waiting for a reconnect). */
  get connected(): boolean {
    return !this.#down && !this.#closed && !this.#nc.isClosed();
  }

  /** Acks outstanding now. */
  get outstanding(): number {
    return this.#outstanding.size;
  }

  /**
   * Publishes `data` to `subject` (a stream's subject); resolves with the
   * ack. Publishes go out in call order on the connection, so a stream
   * stores them in that order. While the connection is down (lost, or
   * declared stale by its pings) it is refused at once.
   */
  publish(subject: string, data: string | Uint8Array, headers: MsgHdrs): Promise<JsAck> {
    if (this.#closed) {
      return Promise.reject(hubError("store_failed", "the JetStream publisher is closed"));
    }
    if (this.#down) return Promise.reject(connectionDown());
    const id = this.#next++;
    return new Promise<JsAck>((resolve, reject) => {
      const timer = this.#deadlines.add(this.#timeoutMs, () => this.#expire(id));
      const retried = false;
      const waiting = { resolve, reject, timer, subject, data, headers, retried };
      this.#outstanding.set(id, waiting);
      try {
        this.#nc.publish(subject, data, { reply: `${this.#prefix}${id}`, headers });
      } catch (error) {
        this.#outstanding.delete(id);
        this.#deadlines.clear(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Rejects whatever still waits; later publishes are refused. */
  close(): void {
    this.#closed = true;
    this.#failAll(hubError("store_failed", "the JetStream publisher is closed"));
  }

  #settle(msg: Msg): void {
    const id = publishId(msg.subject, this.#prefix.length);
    const waiting = this.#outstanding.get(id);
    if (waiting === undefined) return; // Timed out already, or not ours.
    const ack = parseJsAck(msg);
    if (ack instanceof Error && unavailable(ack) && this.#retryLater(id, waiting)) return;
    this.#outstanding.delete(id);
    this.#deadlines.clear(waiting.timer);
    if (ack instanceof Error) waiting.reject(ack);
    // A retry reported as a duplicate: the first copy was stored (at `seq`) before its ack got lost.
    else waiting.resolve(waiting.retried ? { ...ack, duplicate: false } : ack);
  }

  /**
   * JetStream is unavailable for the moment (no responders, a stream leader
   * being elected): publishes `id` again after {@link NATS_PUBLISH_RETRY_MS}
   * while its deadline allows; false when it does not.
   */
  #retryLater(id: number, waiting: Outstanding): boolean {
    if (performance.now() + NATS_PUBLISH_RETRY_MS >= waiting.timer.at) return false;
    waiting.retried = true;
    const timer = setTimeout(() => {
      if (this.#outstanding.get(id) !== waiting) return;
      try {
        const reply = `${this.#prefix}${id}`;
        this.#nc.publish(waiting.subject, waiting.data, { reply, headers: waiting.headers });
      } catch {
        // Its deadline fails it.
      }
    }, NATS_PUBLISH_RETRY_MS);
    timer.unref();
    return true;
  }

  /**
   * The connection is lost or stale: publishes in flight wait for the
   * reconnect at most `reconnectGraceMs` more (their acks may still come
   * after it, by the republish); then they fail `store_failed`.
   */
  #lost(): void {
    if (this.#down) return;
    this.#down = true;
    const grace = performance.now() + this.#reconnectGraceMs;
    for (const [id, waiting] of this.#outstanding) {
      if (waiting.timer.at <= grace) continue;
      this.#deadlines.clear(waiting.timer);
      waiting.timer = this.#deadlines.add(this.#reconnectGraceMs, () =>
        this.#expire(id, "the NATS connection was lost and not restored in time"),
      );
    }
  }

  /** Publishes again everything still waiting for its ack (after a reconnect). */
  #republish(): void {
    for (const [id, waiting] of this.#outstanding) {
      waiting.retried = true;
      try {
        this.#nc.publish(waiting.subject, waiting.data, {
          reply: `${this.#prefix}${id}`,
          headers: waiting.headers,
        });
      } catch {
        // Lost again: its deadline fails it.
      }
    }
  }

  /** `id` had no ack in time. */
  #expire(id: number, why?: string): void {
    const waiting = this.#outstanding.get(id);
    if (waiting === undefined) return;
    this.#outstanding.delete(id);
    waiting.reject(
      why === undefined
        ? hubError("store_failed", `JetStream did not ack within ${this.#timeoutMs} ms`)
        : hubError("store_failed", `${why}: not known to be stored, send it again`, {
            details: { nats: "disconnected" },
          }),
    );
  }

  #failAll(error: Error): void {
    const waiting = [...this.#outstanding.values()];
    this.#outstanding.clear();
    for (const w of waiting) {
      this.#deadlines.clear(w.timer);
      w.reject(error);
    }
  }
}

/**
 * The publish id a reply subject ends with (`<prefix><id>`, 1 to 15 digits);
 * -1 for any other subject. Runs for every ack, so without a regular expression.
 */
export function publishId(subject: string, from: number): number {
  const n = subject.length - from;
  if (n < 1 || n > 15) return -1;
  for (let i = from; i < subject.length; i++) {
    const c = subject.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return Number(subject.slice(from));
}

/** The refusal of a publish while the hub has no NATS connection: retryable. */
export function connectionDown(): OcpError {
  return hubError(
    "store_failed",
    "the hub's NATS connection is down (reconnecting to another server): not stored, send it again",
    { details: { nats: "disconnected" } },
  );
}

/** JetStream answered "not now" (status 503): worth publishing again shortly. */
function unavailable(error: Error): boolean {
  return error instanceof OcpError && error.details["status"] === 503;
}
