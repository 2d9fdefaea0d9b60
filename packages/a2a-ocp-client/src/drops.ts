/**
 * How a {@link HubClient} reports a delivery it refused: the `dropped` event
 * (with the message id and the text as received), emitted before the
 * delivery's sequence number counts as handled. With nobody listening, a
 * refusal other than a replay (whose original was delivered) becomes a
 * process warning `OCP_DELIVERY_DROPPED`, at most
 * {@link CLIENT_UNHEARD_DROP_WARNINGS} of them, so a confirmed delivery is
 * never dropped without a trace.
 */
import type { EventEmitter } from "node:events";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { parseJsonText } from "@ocp/types/internal";
import { CLIENT_UNHEARD_DROP_WARNINGS } from "./limits.js";
import type { DroppedMessage, HubClientEvents } from "./receipts.js";

export class DropReporter {
  readonly #emitter: EventEmitter<HubClientEvents>;
  readonly #agentId: string;
  #unheard = 0;

  constructor(emitter: EventEmitter<HubClientEvents>, agentId: string) {
    this.#emitter = emitter;
    this.#agentId = agentId;
  }

  report(dropped: Omit<DroppedMessage, "id">): void {
    const id = idOf(dropped.raw);
    const event: DroppedMessage = id === undefined ? dropped : { ...dropped, id };
    if (this.#emitter.listenerCount("dropped") > 0) {
      this.#emitter.emit("dropped", event);
      return;
    }
    if (event.code === "replay_detected") return;
    this.#unheard += 1;
    if (this.#unheard > CLIENT_UNHEARD_DROP_WARNINGS) return;
    const what = event.durable ? `durable delivery ${event.seq}` : "a delivery";
    const message = id === undefined ? "" : ` (message ${JSON.stringify(id.slice(0, 100))})`;
    const last = this.#unheard === CLIENT_UNHEARD_DROP_WARNINGS;
    process.emitWarning(
      `${this.#agentId} dropped ${what}${message}: ${event.code}: ${event.error.message}. Listen to the HubClient "dropped" event to handle it${last ? "; further drops are not reported" : ""}.`,
      { code: "OCP_DELIVERY_DROPPED" },
    );
  }
}

/** The `id` of a message's text, read as far as it goes (a refused one may be anything). */
function idOf(raw: string): string | undefined {
  const json = parseJsonText(raw);
  if (!json.ok || !isJsonObject(json.value)) return undefined;
  const id = json.value["id"];
  return typeof id === "string" ? id : undefined;
}
