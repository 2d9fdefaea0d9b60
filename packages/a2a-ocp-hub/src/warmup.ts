/**
 * The start-up warm-up: before `ocp-hub` listens, it carries signed durable
 * messages from one throwaway agent to another through a private hub of its
 * own, over a real loopback WebSocket, through the same code a real message
 * takes (framing, the §8 checks and §8.3 verification, commit, delivery,
 * acks). A fresh Node process runs that code interpreted until V8 has
 * compiled it, at two to three times its steady cost; the warm-up pays that
 * before the first agent arrives instead of in its first seconds of traffic.
 *
 * Nothing of it outlives the call: the private hub keeps its messages in an
 * in-memory SQLite store, writes no audit log, admits only the two agents it
 * made (a stranger that finds its port is refused at registration) and is
 * closed before the call resolves.
 */
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  generateIdentity,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import {
  buildAnnouncement,
  encodeHubControl,
  HUB_TYPES,
  isHubFrame,
  isJsonObject,
  parseDeliver,
} from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { connectWs, type WsClient } from "@ocp/transport-ws";
import { OCPHub } from "./hub.js";
import {
  HUB_WARMUP_IN_FLIGHT,
  HUB_WARMUP_MAX_MESSAGES,
  HUB_WARMUP_MESSAGES,
  HUB_WARMUP_TIMEOUT_MS,
} from "./limits.js";

export interface WarmUpOptions {
  /** Messages to carry; `HUB_WARMUP_MESSAGES` by default, 0 to skip (at most `HUB_WARMUP_MAX_MESSAGES`). */
  messages?: number;
  /** Time the warm-up may take, ms (`HUB_WARMUP_TIMEOUT_MS` by default). */
  timeoutMs?: number;
  /**
   * Called with the private hub's URL once it listens, and awaited before the
   * first message: to log it, or to show that it refuses strangers.
   */
  onListening?: (url: string) => void | Promise<void>;
}

/** What a warm-up did. */
export interface WarmUpReport {
  /** Messages the private hub accepted and delivered. */
  messages: number;
  /** Wall-clock time of the whole warm-up, ms. */
  ms: number;
  /** Whether every asked-for message went through; when not, `reason` says why. */
  completed: boolean;
  reason?: string;
}

const SENDER = "a2a://ocp-hub-warmup/sender";
const RECIPIENT = "a2a://ocp-hub-warmup/recipient";
const PAD = "x".repeat(300);

/** Confirm deliveries (`ocp.hub.delivered`) every this many, as the hub's own client does. */
const CONFIRM_EVERY = 64;

/**
 * Carries `messages` signed durable messages through a private hub (see the
 * module's comment). Never throws for what happens inside: a warm-up that
 * stalls, is refused or times out resolves with `completed: false` and its
 * reason, and the caller starts its hub anyway. Throws `RangeError` for a
 * `messages` or `timeoutMs` out of bounds.
 */
export async function warmUpHub(options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const wanted = options.messages ?? HUB_WARMUP_MESSAGES;
  if (!Number.isSafeInteger(wanted) || wanted < 0 || wanted > HUB_WARMUP_MAX_MESSAGES) {
    throw new RangeError(
      `warm-up messages must be an integer from 0 to ${HUB_WARMUP_MAX_MESSAGES} (got ${wanted})`,
    );
  }
  const timeoutMs = options.timeoutMs ?? HUB_WARMUP_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`warm-up timeoutMs must be a positive number (got ${timeoutMs})`);
  }
  const started = performance.now();
  const report = (messages: number, reason?: string): WarmUpReport => ({
    messages,
    ms: Math.round(performance.now() - started),
    completed: reason === undefined,
    ...(reason === undefined ? {} : { reason }),
  });
  if (wanted === 0) return report(0);

  const sender = generateIdentity(SENDER);
  const recipient = generateIdentity(RECIPIENT);
  const profiles = [sender, recipient].map((id) => createAgentProfile(id, {}, nativeEd25519));
  let hub: OCPHub;
  try {
    hub = await OCPHub.start({
      host: "127.0.0.1",
      port: 0,
      dbPath: ":memory:",
      allowedProfiles: profiles,
      rateLimits: false,
    });
  } catch (error) {
    return report(0, `the private hub did not start: ${errorText(error)}`);
  }
  const clients: WsClient[] = [];
  const run = new Carrier(wanted);
  let timer: NodeJS.Timeout | undefined;
  try {
    await options.onListening?.(hub.url);
    const connect = async (id: AgentIdentity, index: number, onMessage: (raw: string) => void) => {
      const client = await connectWs({
        url: hub.url,
        reconnect: false,
        announce: (nonce) =>
          buildAnnouncement(id, profiles[index]!, nonce, undefined, nativeEd25519),
        onMessage,
      });
      clients.push(client);
      client.on("close", () => run.fail("a warm-up connection closed"));
      return client;
    };
    const inbox = await connect(recipient, 1, (raw) => run.delivered(raw, inbox));
    const outbox = await connect(sender, 0, (raw) => run.answered(raw));
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        run.fail(`timed out after ${timeoutMs} ms`);
        resolve();
      }, timeoutMs);
    });
    await Promise.race([run.carry(sender, recipient, outbox), timedOut]);
    return report(run.arrived, run.failure);
  } catch (error) {
    return report(run.arrived, errorText(error));
  } finally {
    clearTimeout(timer);
    run.fail("closed");
    await Promise.allSettled(clients.map((client) => client.close()));
    await hub.close();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The sender's window and the recipient's count of one warm-up. */
class Carrier {
  arrived = 0;
  failure: string | undefined;
  #sent = 0;
  #confirmed = 0;
  #lastSeq = 0;
  #waiting = new Map<string, () => void>();
  #allArrived: (() => void) | undefined;
  #stopped: (() => void) | undefined;
  readonly #stop = new Promise<void>((resolve) => {
    this.#stopped = resolve;
  });

  constructor(readonly wanted: number) {}

  /** Sends every message, `HUB_WARMUP_IN_FLIGHT` unacknowledged at a time; resolves once all arrived. */
  async carry(from: AgentIdentity, to: AgentIdentity, outbox: WsClient): Promise<void> {
    const arrivedAll = new Promise<void>((resolve) => {
      this.#allArrived = resolve;
    });
    const lane = async () => {
      while (this.failure === undefined && this.#sent < this.wanted) {
        const i = this.#sent++;
        const message = createMessage({
          type: "ocp.knowledge.stream",
          from: from.id,
          to: to.id,
          payload: {
            streamId: "warmup",
            nodes: [
              {
                id: `warmup-${i}`,
                type: "code.solution",
                title: "warm-up",
                data: { i, pad: PAD },
                confidence: 0.9,
                timestamp: new Date().toISOString(),
                createdBy: from.id,
                tags: ["warmup"],
              },
            ],
            isIncremental: true,
            sequenceNumber: i,
          },
        });
        const answered = new Promise<void>((resolve) => this.#waiting.set(message.id, resolve));
        outbox.send(JSON.stringify(signObject(message, from.secretKey, nativeEd25519)));
        await Promise.race([answered, this.#stop]);
      }
    };
    await Promise.all(Array.from({ length: HUB_WARMUP_IN_FLIGHT }, lane));
    await Promise.race([arrivedAll, this.#stop]);
  }

  /** A frame to the sender: the hub's ack or refusal of one message. */
  answered(raw: string): void {
    if (!isHubFrame(raw)) return;
    let frame: unknown;
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    if (!isJsonObject(frame) || !isJsonObject(frame["payload"])) return;
    // Any refusal ends the run, with or without the id it refers to.
    if (frame["type"] === HUB_TYPES.REJECT) {
      this.fail(`the private hub refused a warm-up message (${String(frame["payload"]["code"])})`);
      return;
    }
    const id = frame["payload"]["id"];
    if (typeof id !== "string") return;
    this.#waiting.get(id)?.();
    this.#waiting.delete(id);
  }

  /** A frame to the recipient: a delivery is counted and confirmed. */
  delivered(raw: string, inbox: WsClient): void {
    const delivery = parseDeliver(raw);
    if (delivery === undefined) return;
    this.#lastSeq = Math.max(this.#lastSeq, delivery.seq);
    this.arrived += 1;
    if (this.#lastSeq - this.#confirmed >= CONFIRM_EVERY || this.arrived === this.wanted) {
      this.#confirmed = this.#lastSeq;
      inbox.send(encodeHubControl(HUB_TYPES.DELIVERED, { seq: this.#lastSeq }));
    }
    if (this.arrived === this.wanted) this.#allArrived?.();
  }

  /** Stops the run with `reason` (the first reason given is kept). */
  fail(reason: string): void {
    this.failure ??= reason;
    this.#stopped?.();
  }
}
