/**
 * The §3 audit log of an agent listening for peers (`listenForPeers`'s
 * `audit` option): what it accepted from a peer, refused (with the code and
 * reason it answered; a refused registration too) and delivered to a peer, appended to an
 * {@link AuditLog} and pruned to the log's retention every minute.
 */
import type { AuditEntry, AuditLog } from "@ocp/a2a-ocp-messaging";
import { auditRecipients, isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { parseJsonText } from "@ocp/types/internal";

/** Interval at which a listening agent prunes its audit log, ms. */
export const PEER_AUDIT_PRUNE_INTERVAL_MS = 60_000;

/** Longest refusal reason kept in an entry, characters (a reason may quote input). */
const REASON_MAX_CHARS = 1000;

export class PeerAudit {
  readonly log: AuditLog;
  readonly #prune: NodeJS.Timeout;

  constructor(log: AuditLog) {
    this.log = log;
    const prune = () => {
      this.log.prune(Date.now()).catch(() => undefined);
    };
    prune();
    this.#prune = setInterval(prune, PEER_AUDIT_PRUNE_INTERVAL_MS);
    this.#prune.unref();
  }

  #append(entry: AuditEntry): void {
    try {
      this.log.append(entry);
    } catch {
      // A failing log must not stop the listener; the log reports its own failures.
    }
  }

  accepted(message: { id: string; type: string; from: string; to: unknown }): void {
    const { id, type, from } = message;
    this.#append({
      at: Date.now(),
      event: "accepted",
      id,
      type,
      from,
      to: auditRecipients(message.to),
    });
  }

  /** A refusal answered to peer `from`; `raw` is read for the id, type and `to` as far as it goes. */
  refused(from: string, raw: string, code: string, reason: string): void {
    const parsed = parseJsonText(raw);
    const v: Record<string, unknown> = parsed.ok && isJsonObject(parsed.value) ? parsed.value : {};
    const text = (key: string) => {
      const member = v[key];
      return typeof member === "string" ? member : undefined;
    };
    this.#append({
      at: Date.now(),
      event: "refused",
      id: text("id"),
      type: text("type"),
      from,
      to: auditRecipients(v["to"]),
      code,
      reason: reason.length > REASON_MAX_CHARS ? `${reason.slice(0, REASON_MAX_CHARS)}…` : reason,
    });
  }

  /** A registration refused (`type` `ocp.hub.announce`, addressed to the listener). */
  registrationRefused(from: string, listener: string, code: string, reason: string): void {
    this.#append({
      at: Date.now(),
      event: "refused",
      type: "ocp.hub.announce",
      from,
      to: [listener],
      code,
      reason: reason.length > REASON_MAX_CHARS ? `${reason.slice(0, REASON_MAX_CHARS)}…` : reason,
    });
  }

  delivered(message: Record<string, unknown>, to: string): void {
    this.#append({
      at: Date.now(),
      event: "delivered",
      id: String(message["id"]),
      type: String(message["type"]),
      from: String(message["from"]),
      to: [to],
    });
  }

  close(): Promise<void> {
    clearInterval(this.#prune);
    return this.log.close();
  }
}
