import { decodeLine } from "@ocp/types";
import { excerpt } from "../evidence.js";
import { MAX_HTTP_BODY_BYTES } from "../limits.js";
import {
  Inbox,
  type Incoming,
  type Recorded,
  type Session,
  type ShutdownOutcome,
} from "../session.js";

export interface HttpSessionOptions {
  readonly url: string;
  /** Extra request headers (e.g. authorization). Never written into a report. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Reads a response body, refusing more than {@link MAX_HTTP_BODY_BYTES}. */
async function readBody(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_HTTP_BODY_BYTES) {
      await reader.cancel();
      throw new Error(`response body over ${MAX_HTTP_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A raw streamable-HTTP connection: every envelope is one POST to the URL,
 * and the response body is one envelope back (the reference's wire). The
 * body text is what the checks see.
 */
export class HttpSession implements Session {
  readonly label: string;
  readonly #options: HttpSessionOptions;
  readonly #inbox = new Inbox();
  readonly #record: (entry: Recorded) => void;
  readonly #inFlight = new Set<AbortController>();

  constructor(options: HttpSessionOptions, label: string, record: (entry: Recorded) => void) {
    this.label = label;
    this.#options = options;
    this.#record = record;
  }

  send(message: Record<string, unknown> | string, context: string): void {
    void this.#post(typeof message === "string" ? message : JSON.stringify(message), context);
  }

  async #post(body: string, context: string): Promise<void> {
    const controller = new AbortController();
    this.#inFlight.add(controller);
    try {
      const response = await fetch(this.#options.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...this.#options.headers },
        body,
        signal: controller.signal,
      });
      const raw = await readBody(response);
      if (raw.trim() !== "") this.#record({ session: this.label, after: context, raw });
      this.#inbox.push({ kind: "message", raw, decoded: decodeLine(raw), status: response.status });
    } catch (error) {
      if (controller.signal.aborted) return;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message ?? (error as Error).message;
      this.#inbox.push({ kind: "failure", message: `POST ${this.#options.url} failed: ${detail}` });
    } finally {
      this.#inFlight.delete(controller);
    }
  }

  next(timeoutMs: number): Promise<Incoming> {
    return this.#inbox.next(timeoutMs);
  }

  async shutdown(timeoutMs: number): Promise<ShutdownOutcome> {
    this.send({ type: "shutdown" }, "shutdown");
    const reply = await this.next(timeoutMs);
    if (reply.kind === "message") {
      const status = reply.status ?? 200;
      const body = excerpt(reply.raw);
      if (status >= 400) {
        const named =
          reply.decoded.ok && reply.decoded.value.type === "error"
            ? `an OCP error${reply.decoded.value.code === undefined ? "" : ` (${reply.decoded.value.code})`}: ${excerpt(reply.decoded.value.message)}`
            : `${body}, not even an OCP error`;
        return { kind: "rejected", message: `HTTP ${status}, ${named}` };
      }
      // Acknowledged: an empty body, or an envelope (the reference echoes `shutdown`).
      if (reply.raw.trim() !== "" && !reply.decoded.ok) {
        return {
          kind: "rejected",
          message: `HTTP ${status} with a body that is not an OCP envelope: ${body}`,
        };
      }
      if (reply.decoded.ok && reply.decoded.value.type === "error") {
        return { kind: "rejected", message: `HTTP ${status} carrying an error: ${body}` };
      }
      return { kind: "answered", status };
    }
    if (reply.kind === "failure") return { kind: "connection-closed", message: reply.message };
    if (reply.kind === "timeout") {
      await this.dispose();
      return { kind: "ignored", waitedMs: timeoutMs, after: "timeout" };
    }
    return { kind: "already-gone", code: reply.code, signal: reply.signal };
  }

  async dispose(): Promise<void> {
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
  }
}
