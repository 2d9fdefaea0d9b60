/**
 * One authenticated hub link, the same on both sides once the handshake is
 * done (dial.ts, accept.ts): it sends this hub's public cards, forwards the
 * peer's outbox in `seq` order with at most {@link FEDERATION_IN_FLIGHT_MAX}
 * unacknowledged, drops an entry once the peer answered it, and takes what
 * the peer sends — cards (vouching), forwarded messages (inbound.ts), acks
 * and refusals — one frame at a time, within the peer's budget.
 */
import type { AgentProfile } from "@ocp/a2a-ocp-messaging";
import type { Connection } from "@ocp/transport-ws";
import { CLOSE_CODES } from "@ocp/transport-ws";
import type { FederationPeer } from "./config.js";
import { FED_TYPES, frame, type LinkFrame, parseLinkFrame } from "./frames.js";
import type { InboundContext, InboundOutcome } from "./inbound.js";
import { receive } from "./inbound.js";
import {
  FEDERATION_BACKOFF_MAX_MS,
  FEDERATION_BUDGET_WINDOW_MS,
  FEDERATION_BYTES_PER_MINUTE,
  FEDERATION_IN_FLIGHT_MAX,
  FEDERATION_MESSAGES_PER_MINUTE,
  FEDERATION_OVER_BUDGET_FRAMES_BEFORE_CLOSE,
} from "./limits.js";
import type { VouchRefusal } from "./registry.js";

/** What a link uses of the federation. */
export interface LinkContext {
  readonly inbound: InboundContext;
  /** This hub's cards that may cross (public ones). */
  cards(): Promise<AgentProfile[]>;
  /** Takes a card the peer vouches for: refused, or learned (`undefined`). */
  vouch(card: unknown): VouchRefusal | undefined;
  /** The peer's outbox entries after `afterSeq`. */
  pending(afterSeq: number, limit: number): Promise<Array<{ seq: number; raw: string }>>;
  /** The peer answered outbox entry `seq`. */
  answered(seq: number): void;
  /** A refusal (either side's), for the audit log. */
  refused(entry: {
    code: string;
    reason: string;
    id?: string;
    from?: string;
    type?: string;
    sent: boolean;
  }): void;
  /** A collective query the peer forwarded (transient, inbound.ts `receiveQuery`). */
  query(raw: string): InboundOutcome;
  /** An event notification the peer forwarded (transient, events.ts `receiveEvent`). */
  event(raw: string): InboundOutcome;
  /** A forwarded message this hub committed for its agents. */
  received(outcome: Extract<InboundOutcome, { ok: true }>): void;
  readonly onError: (error: unknown) => void;
  readonly now: () => number;
  /** The peer's budget per window (limits.ts defaults; an option may lower them). */
  readonly budget: FederationBudget;
  /** What the peer spent in the current window: one per organisation, kept across its links. */
  readonly window: BudgetWindow;
}

/** A peer organisation's spending in one budget window. */
export interface BudgetWindow {
  start: number;
  messages: number;
  bytes: number;
  over: number;
}

/** A peer organisation's budget per `FEDERATION_BUDGET_WINDOW_MS`. */
export interface FederationBudget {
  messages: number;
  bytes: number;
}

/** The default budget. */
export const DEFAULT_FEDERATION_BUDGET: FederationBudget = {
  messages: FEDERATION_MESSAGES_PER_MINUTE,
  bytes: FEDERATION_BYTES_PER_MINUTE,
};

export class PeerLink {
  readonly peer: FederationPeer;
  readonly connection: Connection;
  readonly #ctx: LinkContext;
  /** Highest outbox seq sent on this link. */
  #sent = 0;
  #inFlight = 0;
  #pumping = false;
  #again = false;
  #paused: NodeJS.Timeout | undefined;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  #started = false;

  /**
   * `dialled`: this hub dialled the link and speaks first (its cards, then
   * its outbox); the accepting side starts once the dialler's first frame
   * arrived, so nothing is sent before the dialler took the handshake.
   */
  constructor(peer: FederationPeer, connection: Connection, ctx: LinkContext, dialled: boolean) {
    this.peer = peer;
    this.connection = connection;
    this.#ctx = ctx;
    connection.on("message", (raw) => {
      if (!this.#started) this.#start(false);
      this.#chain = this.#chain.then(() => this.#onFrame(raw)).catch(ctx.onError);
    });
    connection.once("close", () => {
      this.#closed = true;
      if (this.#paused !== undefined) clearTimeout(this.#paused);
    });
    if (dialled) this.#start(true);
  }

  #start(always: boolean): void {
    this.#started = true;
    this.#ctx.cards().then((cards) => {
      if (always && cards.length === 0)
        this.connection.send(frame(FED_TYPES.AGENTS, { cards: [] }));
      this.sendCards(cards);
      this.pump();
    }, this.#ctx.onError);
  }

  get open(): boolean {
    return !this.#closed && this.connection.state === "open";
  }

  /** Vouches for `cards` to the peer. */
  sendCards(cards: readonly AgentProfile[]): void {
    for (let i = 0; i < cards.length; i += 64) {
      this.connection.send(frame(FED_TYPES.AGENTS, { cards: cards.slice(i, i + 64) }));
    }
  }

  /** Forwards a collective query broadcast (transient: lost with the link, as it is with a connection). */
  sendQuery(raw: string): boolean {
    if (!this.open || !this.#started) return false;
    return this.connection.send(frame(FED_TYPES.QUERY, { raw })) !== "closed";
  }

  /** Forwards an event notification for a subscriber of the peer (transient, as {@link sendQuery}). */
  sendEvent(raw: string): boolean {
    if (!this.open || !this.#started) return false;
    return this.connection.send(frame(FED_TYPES.EVENT, { raw })) !== "closed";
  }

  /** Forwards what the outbox holds past what was sent, up to the in-flight window. */
  pump(): void {
    if (!this.#started) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    if (!this.open || this.#paused !== undefined) return;
    this.#pumping = true;
    const room = FEDERATION_IN_FLIGHT_MAX - this.#inFlight;
    const read = room > 0 ? this.#ctx.pending(this.#sent, room) : Promise.resolve([]);
    read
      .then((entries) => {
        for (const { seq, raw } of entries) {
          if (!this.open) return;
          this.connection.send(frame(FED_TYPES.MESSAGE, { seq, raw }));
          this.#sent = seq;
          this.#inFlight += 1;
        }
      })
      .catch(this.#ctx.onError)
      .finally(() => {
        this.#pumping = false;
        if (this.#again) {
          this.#again = false;
          this.pump();
        }
      });
  }

  /** Closes the link (`code`, `reason`). */
  close(code: number = CLOSE_CODES.GOING_AWAY, reason = "federation closing"): void {
    this.#closed = true;
    this.connection.close(code, reason);
  }

  async #onFrame(raw: string): Promise<void> {
    const parsed = parseLinkFrame(raw);
    if (parsed === undefined) {
      if (this.#spend(raw.length)) return; // Counted as a message: junk is no cheaper.
      const reason = "not a hub-to-hub frame";
      this.#ctx.refused({ code: "federation_frame_invalid", reason, sent: false });
      this.connection.send(frame(FED_TYPES.REJECT, { code: "federation_frame_invalid", reason }));
      return;
    }
    await this.#handle(parsed, raw.length);
  }

  async #handle(f: LinkFrame, bytes: number): Promise<void> {
    switch (f.type) {
      case FED_TYPES.AGENTS:
        if (this.#spend(bytes)) return;
        for (const card of f.payload.cards) {
          const refused = this.#ctx.vouch(card);
          if (refused === undefined) continue;
          const agent =
            typeof card === "object" && card !== null ? (card as { id?: unknown }).id : undefined;
          this.#ctx.refused({
            ...refused,
            sent: false,
            ...(typeof agent === "string" ? { from: agent } : {}),
          });
          this.connection.send(
            frame(FED_TYPES.REJECT, {
              ...refused,
              ...(typeof agent === "string" ? { agent: agent.slice(0, 512) } : {}),
            }),
          );
        }
        return;
      case FED_TYPES.MESSAGE: {
        const { seq, raw } = f.payload;
        if (this.#spend(bytes)) {
          this.connection.send(
            frame(FED_TYPES.REJECT, {
              seq,
              code: "federation_over_budget",
              reason: `over the budget of ${this.peer.hubId}`,
            }),
          );
          return;
        }
        const outcome = await receive(seq, raw, this.#ctx.inbound);
        if (outcome.ok) {
          if (!outcome.resent) this.#ctx.received(outcome);
          this.connection.send(frame(FED_TYPES.ACK, { seq }));
          return;
        }
        this.#ctx.refused({ ...outcome, sent: false });
        const reason = outcome.reason.slice(0, 1024);
        this.connection.send(frame(FED_TYPES.REJECT, { seq, code: outcome.code, reason }));
        return;
      }
      case FED_TYPES.QUERY:
      case FED_TYPES.EVENT: {
        if (this.#spend(bytes)) return;
        const { raw } = f.payload;
        const outcome = f.type === FED_TYPES.QUERY ? this.#ctx.query(raw) : this.#ctx.event(raw);
        if (outcome.ok) {
          this.#ctx.received(outcome);
          return;
        }
        this.#ctx.refused({ ...outcome, sent: false });
        const reason = outcome.reason.slice(0, 1024);
        this.connection.send(frame(FED_TYPES.REJECT, { code: outcome.code, reason }));
        return;
      }
      case FED_TYPES.ACK:
        this.#answered(f.payload.seq);
        return;
      case FED_TYPES.REJECT: {
        const { seq, code, reason } = f.payload;
        if (seq === undefined) {
          this.#ctx.refused({
            code,
            reason,
            sent: true,
            ...(f.payload.agent ? { from: f.payload.agent } : {}),
          });
          return;
        }
        if (code === "federation_over_budget") {
          this.#backOff(seq);
          return;
        }
        this.#ctx.refused({ code, reason, sent: true });
        this.#answered(seq);
        return;
      }
    }
  }

  #answered(seq: number): void {
    if (seq > this.#sent) return; // Not something this link sent.
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#ctx.answered(seq);
    this.pump();
  }

  /** The peer is over budget: keep `seq` and what follows, send them again later. */
  #backOff(seq: number): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (this.#paused !== undefined) {
      this.#sent = Math.min(this.#sent, seq - 1);
      return;
    }
    this.#sent = seq - 1;
    this.#paused = setTimeout(() => {
      this.#paused = undefined;
      this.#inFlight = 0;
      this.pump();
    }, FEDERATION_BACKOFF_MAX_MS);
    this.#paused.unref();
  }

  /** Counts a frame (any kind) against the peer's budget; true when over (refused; closed past the grace). */
  #spend(bytes: number): boolean {
    const now = this.#ctx.now();
    const w = this.#ctx.window;
    if (now - w.start >= FEDERATION_BUDGET_WINDOW_MS) {
      Object.assign(w, { start: now, messages: 0, bytes: 0, over: 0 });
      return this.#spend(bytes);
    }
    w.bytes += bytes;
    w.messages += 1;
    const { budget } = this.#ctx;
    if (w.messages <= budget.messages && w.bytes <= budget.bytes) {
      return false;
    }
    w.over += 1;
    if (w.over === 1) {
      const reason = `${this.peer.hubId} went over its budget (${budget.messages} messages, ${budget.bytes} bytes per window)`;
      this.#ctx.refused({
        code: "federation_over_budget",
        reason,
        from: this.peer.hubId,
        sent: false,
      });
    }
    if (w.over > FEDERATION_OVER_BUDGET_FRAMES_BEFORE_CLOSE) {
      this.close(CLOSE_CODES.POLICY_VIOLATION, "federation_over_budget");
    }
    return true;
  }
}
