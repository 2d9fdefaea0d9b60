/**
 * The hub's side of the §3 audit log (the `audit` option): what it accepted,
 * refused (code and reason), delivered on a connection, and let expire
 * unconfirmed, appended to an {@link AuditLog} (a {@link SqliteAuditLog} for
 * `ocp-hub`), pruned to the log's retention every
 * {@link HUB_AUDIT_PRUNE_INTERVAL_MS}. Nothing here runs without the option.
 * Every log bounds what it stores (`boundAuditEntry`).
 */
import type { AuditEntry, AuditLog } from "@ocp/a2a-ocp-messaging";
import { auditRecipients, isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { HUB_AUDIT_PRUNE_INTERVAL_MS } from "./limits.js";
import type { ExpiredDelivery } from "./store.js";

/** What a message's text says about itself, read as far as it goes (refused input may be anything). */
export function describeRaw(raw: string | Buffer | undefined): {
  id?: string;
  type?: string;
  from?: string;
  to: string[];
} {
  if (raw === undefined) return { to: [] };
  let value: unknown;
  try {
    value = JSON.parse(typeof raw === "string" ? raw : raw.toString("utf8"));
  } catch {
    return { to: [] };
  }
  if (!isJsonObject(value)) return { to: [] };
  const v = value;
  const text = (key: string) => {
    const member = v[key];
    return typeof member === "string" ? { [key]: member } : {};
  };
  return { ...text("id"), ...text("type"), ...text("from"), to: auditRecipients(v["to"]) };
}

export class HubAudit {
  readonly log: AuditLog;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #prune: NodeJS.Timeout;

  constructor(log: AuditLog, hub: { now: () => number; onError: (error: unknown) => void }) {
    this.log = log;
    this.#now = hub.now;
    this.#onError = hub.onError;
    const prune = () => {
      this.log.prune(this.#now()).catch(this.#onError);
    };
    prune();
    this.#prune = setInterval(prune, HUB_AUDIT_PRUNE_INTERVAL_MS);
    this.#prune.unref();
  }

  #append(entry: AuditEntry): void {
    try {
      this.log.append(entry);
    } catch (error) {
      this.#onError(error);
    }
  }

  accepted(wire: { id: string; type: string; from: string; to: unknown }): void {
    const { id, type, from } = wire;
    this.#append({
      at: this.#now(),
      event: "accepted",
      id,
      type,
      from,
      to: auditRecipients(wire.to),
    });
  }

  /** A refusal answered to `from` (the authenticated agent); `raw` is read for id, type and `to`. */
  refused(from: string, code: string, reason: string, id?: string, raw?: string): void {
    const seen = describeRaw(raw);
    this.#append({
      at: this.#now(),
      event: "refused",
      id: id ?? seen.id,
      type: seen.type,
      from,
      to: seen.to,
      code,
      reason, // bounded by the log (AUDIT_MAX_REASON_CHARS), as every field
    });
  }

  /** A message sent to `agentId` on its connection (the exact text, or a hub-signed one). */
  delivered(agentId: string, message: string | Buffer): void {
    const seen = describeRaw(message);
    this.#append({
      at: this.#now(),
      event: "delivered",
      id: seen.id,
      type: seen.type,
      from: seen.from ?? "",
      to: [agentId],
    });
  }

  /** A transient message not sent to `agentId`: over its declared `maxStreamBandwidth`. */
  dropped(agentId: string, message: Buffer, bytesPerSecond: number): void {
    const seen = describeRaw(message);
    this.#append({
      at: this.#now(),
      event: "refused",
      id: seen.id,
      type: seen.type,
      from: seen.from ?? "",
      to: [agentId],
      code: "recipient_limit",
      reason: `not delivered to ${agentId}: over its maxStreamBandwidth of ${bytesPerSecond} bytes/s (§7.1)`,
    });
  }

  /** Deliveries the store swept unconfirmed at their expiry. */
  readonly expired = (expired: readonly ExpiredDelivery[]): void => {
    const at = this.#now();
    for (const e of expired) {
      this.#append({
        at,
        event: "expired",
        id: e.id,
        type: e.type,
        from: e.sender,
        to: [e.agentId],
      });
    }
  };

  close(): Promise<void> {
    clearInterval(this.#prune);
    return this.log.close();
  }
}
