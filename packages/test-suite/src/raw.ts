/**
 * An agent on a raw WebSocket, the suite's own (the target is judged on the
 * exact bytes the suite writes, so nothing may re-serialise them): opens a
 * connection with a chosen subprotocol, answers the `ocp.connection.ack`
 * nonce with an announcement (a real one, or a forgery a check builds), and
 * records every frame. Every wait is bounded and event-driven.
 */
import { type AgentIdentity, type AgentProfile, createAgentProfile } from "@ocp/a2a-ocp-messaging";
import {
  buildAnnouncement,
  isHubFrame,
  isJsonObject,
  parseDeliver,
} from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { WebSocket } from "ws";
import { ANSWER_TIMEOUT_MS, MAX_FRAMES_PER_CONNECTION } from "./limits.js";

/** The WebSocket subprotocol of a2a+ocp (§6.2). */
export const SUBPROTOCOL = "a2a-ocp-v1";

export interface Control {
  type: string;
  payload: Record<string, unknown>;
}

/** A close the peer saw: code and reason. */
export interface Closed {
  code: number;
  reason: string;
}

export class Peer {
  readonly ws: WebSocket;
  /** Every text frame received, in order. */
  readonly frames: string[] = [];
  /** Index in {@link frames} of the first frame after registration. */
  registeredAt: number | undefined;
  closed: Closed | undefined;
  readonly #waiters = new Set<() => void>();

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on("message", (data) => {
      if (this.frames.length >= MAX_FRAMES_PER_CONNECTION) {
        ws.terminate();
        return;
      }
      this.frames.push(data.toString());
      this.#wake();
    });
    ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.#wake();
    });
    ws.on("error", () => this.#wake());
  }

  /** Opens a connection offering `protocols`; rejects when the upgrade is refused. */
  static open(url: string, protocols: string[] = [SUBPROTOCOL], timeoutMs = ANSWER_TIMEOUT_MS) {
    const ws = new WebSocket(url, protocols, { perMessageDeflate: false });
    const peer = new Peer(ws);
    return new Promise<Peer>((resolve, reject) => {
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`no WebSocket upgrade within ${timeoutMs} ms`));
      }, timeoutMs);
      ws.once("open", () => {
        clearTimeout(timer);
        resolve(peer);
      });
      ws.once("unexpected-response", (_request, response) => {
        clearTimeout(timer);
        ws.terminate();
        reject(new Error(`upgrade refused with HTTP ${response.statusCode}`));
      });
      ws.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** The subprotocol the server selected. */
  get protocol(): string {
    return this.ws.protocol;
  }

  /** Resolves with the first defined `find()`, re-evaluated on every frame and close. */
  waitFor<T>(find: () => T | undefined, what: string, timeoutMs = ANSWER_TIMEOUT_MS): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        let found: T | undefined;
        try {
          found = find();
        } catch (error) {
          done();
          reject(error);
          return;
        }
        if (found !== undefined) {
          done();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Resolves with the close, or `undefined` when the connection stays open for `timeoutMs`. */
  async closeWithin(timeoutMs = ANSWER_TIMEOUT_MS): Promise<Closed | undefined> {
    try {
      return await this.waitFor(() => this.closed, "close", timeoutMs);
    } catch {
      return undefined;
    }
  }

  /** The first frame that parses to an object with this `type`. */
  control(type: string, from = 0): Control | undefined {
    return this.#parsed(from).find((frame) => frame.type === type);
  }

  /** Frames after registration. */
  get after(): string[] {
    return this.frames.slice(this.registeredAt ?? this.frames.length);
  }

  /** Application messages delivered after registration: transient as sent, durable unwrapped. */
  delivered(): string[] {
    return this.after.flatMap((frame) => {
      if (!isHubFrame(frame)) return [frame];
      const delivery = parseDeliver(frame);
      return delivery === undefined ? [] : [delivery.raw];
    });
  }

  /** Durable deliveries after registration: sequence number and exact text. */
  deliveries(): Array<{ seq: number; raw: string }> {
    return this.after.flatMap((frame) => {
      const delivery = parseDeliver(frame);
      return delivery === undefined ? [] : [delivery];
    });
  }

  /** The hub's control frames after registration (acks, rejects, profiles), parsed. */
  controls(): Control[] {
    return this.after
      .filter((frame) => isHubFrame(frame) && parseDeliver(frame) === undefined)
      .flatMap((frame) => parseControl(frame) ?? []);
  }

  /** The hub's ack or reject of message `id`. */
  answerTo(id: string, timeoutMs = ANSWER_TIMEOUT_MS): Promise<Control> {
    return this.waitFor(
      () => this.controls().find((c) => c.payload["id"] === id),
      `ack or reject of ${id}`,
      timeoutMs,
    );
  }

  /** Waits until a delivered message contains `marker`. */
  receivedMarker(marker: string, timeoutMs = ANSWER_TIMEOUT_MS): Promise<string> {
    return this.waitFor(
      () => this.delivered().find((text) => text.includes(marker)),
      `delivery of ${marker}`,
      timeoutMs,
    );
  }

  send(text: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  close(): void {
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    else this.ws.close(1000);
    setTimeout(() => this.ws.terminate(), 1_000).unref();
  }

  #parsed(from: number): Control[] {
    return this.frames.slice(from).flatMap((frame) => parseControl(frame) ?? []);
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

function parseControl(frame: string): Control | undefined {
  try {
    const value = JSON.parse(frame) as { type?: unknown; payload?: unknown };
    if (typeof value.type !== "string") return undefined;
    const payload = isJsonObject(value.payload) ? value.payload : {};
    return { type: value.type, payload };
  } catch {
    return undefined;
  }
}

/** How a registration attempt ended. */
export type Registration =
  | { outcome: "registered"; peer: Peer; payload: Record<string, unknown> }
  | { outcome: "refused"; peer: Peer; detail: string }
  | { outcome: "no-ack"; peer: Peer; detail: string };

/** What a check may change about the announcement: its text, given the connection's nonce. */
export type Announce = (nonce: string) => string;

/** The honest announcement of `identity` (profile self-signed, signed over the nonce). */
export function honestAnnounce(
  identity: AgentIdentity,
  profile: AgentProfile = createAgentProfile(identity, {}, nativeEd25519),
  lastSeq?: number,
): Announce {
  return (nonce) => buildAnnouncement(identity, profile, nonce, lastSeq, nativeEd25519);
}

/**
 * Connects, waits for the ack, sends `announce(nonce)` and reports whether
 * the target registered the agent, refused it (refusal frame or close), or
 * never sent an ack.
 */
export async function attemptRegistration(
  url: string,
  announce: Announce,
  timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<Registration> {
  const peer = await Peer.open(url, [SUBPROTOCOL], timeoutMs);
  let ack: Control;
  try {
    ack = await peer.waitFor(() => peer.control("ocp.connection.ack"), "connection ack", timeoutMs);
  } catch (error) {
    return { outcome: "no-ack", peer, detail: (error as Error).message };
  }
  const nonce = String(ack.payload["nonce"] ?? "");
  const ackIndex = peer.frames.length;
  peer.send(announce(nonce));
  const decided = await peer
    .waitFor(
      () =>
        peer.control("ocp.connection.registered", ackIndex) ??
        peer.control("ocp.connection.refused", ackIndex) ??
        (peer.closed === undefined ? undefined : { type: "closed", payload: {} }),
      "registration or refusal",
      timeoutMs,
    )
    .catch(() => undefined);
  if (decided?.type === "ocp.connection.registered") {
    peer.registeredAt = peer.frames.findIndex((f) => f.includes('"ocp.connection.registered"')) + 1;
    return { outcome: "registered", peer, payload: decided.payload };
  }
  const closed = decided === undefined ? undefined : await peer.closeWithin(timeoutMs);
  const detail =
    decided === undefined
      ? `neither registered nor refused within ${timeoutMs} ms`
      : `${decided.type === "closed" ? "closed" : `refused (${String(decided.payload["reason"])})`}${closed === undefined ? "" : `, close ${closed.code}`}`;
  return { outcome: "refused", peer, detail };
}

/** Registers `identity` honestly (with `profile`, self-signed by it, when given); throws when the target does not register it. */
export async function register(
  url: string,
  identity: AgentIdentity,
  options: { lastSeq?: number; timeoutMs?: number; profile?: AgentProfile } = {},
): Promise<Peer> {
  const attempt = await attemptRegistration(
    url,
    honestAnnounce(identity, options.profile, options.lastSeq),
    options.timeoutMs,
  );
  if (attempt.outcome !== "registered") {
    attempt.peer.close();
    throw new Error(`${identity.id} was not registered: ${attempt.detail}`);
  }
  return attempt.peer;
}
