/**
 * §12.2 compression of what the agent sends. A message goes compressed when
 * all of these hold, else plain:
 *
 * - its type carries bulk knowledge ({@link COMPRESSED_TYPES}: streams, sync
 *   pages, collective answers);
 * - the JSON of its payload is at least `LIMITS.AGENT_COMPRESSION_THRESHOLD_BYTES`;
 * - it goes to named agents (never a broadcast), and every one of them
 *   announced that it reads the algorithm: its signed card (§8.1, the §7.1
 *   declaration §7.2 negotiation reads) lists it in
 *   `capabilities.ocp.compression`, as the link's directory (§7.3 discovery)
 *   returns it;
 * - the compressed form is smaller than the plain one.
 *
 * Compression happens before signing, so the signature covers the
 * compressed bytes. Sealed (§8.4) messages are never compressed: the message
 * layer's schema forbids combining the two.
 */
import type {
  CompressedMessage,
  Compression,
  EncryptedMessage,
  PlainMessage,
} from "@ocp/a2a-ocp-messaging";
import { BROADCAST } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { compressMessage, decompressMessage } from "@ocp/a2a-ocp-messaging/node";
import { AGENT_COMPRESSION_THRESHOLD_BYTES, COMPRESSION_CARDS_MAX_AGE_MS } from "./limits.js";
import type { AgentLink } from "./link.js";

/** The message types the agent compresses: knowledge streams, sync pages, collective answers. */
export const COMPRESSED_TYPES: ReadonlySet<string> = new Set([
  "ocp.knowledge.stream",
  "ocp.knowledge.sync.response",
  "ocp.collective.response",
]);

/** The algorithms this runtime reads (every agent on a `HubClient` or a peer listener inflates both). */
export const ACCEPTED_COMPRESSION: readonly Compression[] = ["gzip", "brotli"];

/** How an agent compresses what it sends (the `compression` option of `OCPAgent`). */
export interface CompressionOptions {
  /** `false`: never compress. Default `true` (to recipients that announced support only). */
  readonly enabled?: boolean;
  /** Default `gzip`; a recipient must list it. */
  readonly algorithm?: Compression;
  /** Default `LIMITS.AGENT_COMPRESSION_THRESHOLD_BYTES`; at least 1. */
  readonly thresholdBytes?: number;
}

/**
 * Profile `extra` that announces compression: `capabilities.ocp.compression`
 * merged into `extra` (its other capabilities kept). Pass it to
 * `createAgentProfile(identity, { extra: announceCompression() })`.
 */
export function announceCompression(
  extra: Record<string, unknown> = {},
  algorithms: readonly Compression[] = ACCEPTED_COMPRESSION,
): Record<string, unknown> {
  const capabilities = objectAt(extra, "capabilities") ?? {};
  const ocp = objectAt(capabilities, "ocp") ?? {};
  return {
    ...extra,
    capabilities: { ...capabilities, ocp: { ...ocp, compression: [...algorithms] } },
  };
}

/** The algorithms a card announces it reads (`capabilities.ocp.compression`); none when absent or malformed. */
export function cardCompression(card: unknown): Compression[] {
  const listed = objectAt(objectAt(card, "capabilities"), "ocp")?.["compression"];
  if (!Array.isArray(listed)) return [];
  return ACCEPTED_COMPRESSION.filter((algorithm) => listed.includes(algorithm));
}

/** Decides, per outbound message, whether it goes compressed; reads recipients' cards through the link. */
export class OutboundCompression {
  readonly #link: AgentLink;
  readonly #enabled: boolean;
  readonly #algorithm: Compression;
  readonly #threshold: number;
  readonly #now: () => number;
  /** Agent id → the algorithms its card announced, as of {@link #readAt}. */
  #cards = new Map<string, readonly Compression[]>();
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<void> | undefined;

  constructor(link: AgentLink, options: CompressionOptions = {}, now: () => number = Date.now) {
    this.#link = link;
    this.#enabled = options.enabled ?? true;
    this.#algorithm = options.algorithm ?? "gzip";
    const threshold = options.thresholdBytes ?? AGENT_COMPRESSION_THRESHOLD_BYTES;
    // Never "0 means always": a threshold below 1 byte is taken as 1.
    this.#threshold = Number.isFinite(threshold) ? Math.max(1, threshold) : Infinity;
    this.#now = now;
  }

  /**
   * `message` (unsigned) as it goes on the wire: compressed, or unchanged.
   * A sealed (§8.4) message is returned as it is: sealed wins, the two are
   * never combined. Never throws.
   */
  async prepare<M extends PlainMessage | EncryptedMessage>(
    message: M,
  ): Promise<M | CompressedMessage> {
    if ((message as { encrypted?: unknown }).encrypted === true || !("payload" in message))
      return message;
    if (!this.#enabled || !COMPRESSED_TYPES.has(message.type)) return message;
    const size = Buffer.byteLength(JSON.stringify(message.payload), "utf8");
    if (size < this.#threshold || message.to === BROADCAST) return message;
    const recipients = typeof message.to === "string" ? [message.to] : message.to;
    if (recipients.length === 0 || !(await this.#allAccept(recipients))) return message;
    const compressed = compressMessage(message as PlainMessage, {
      algorithm: this.#algorithm,
      thresholdBytes: this.#threshold,
    });
    if (!("compressedPayload" in compressed) || compressed.compressedPayload === undefined)
      return message;
    // Base64 adds a third: a payload that barely compresses goes plain.
    return compressed.compressedPayload.length < size ? compressed : message;
  }

  async #allAccept(recipients: readonly string[]): Promise<boolean> {
    if (this.#now() - this.#readAt >= COMPRESSION_CARDS_MAX_AGE_MS) await this.#refresh();
    return recipients.every((id) => this.#cards.get(id)?.includes(this.#algorithm) === true);
  }

  /** Re-reads the cards (one read at a time); a failed read leaves no agent known to accept. */
  #refresh(): Promise<void> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #read(): Promise<void> {
    const cards = new Map<string, readonly Compression[]>();
    try {
      const found =
        this.#link.cards !== undefined
          ? await this.#link.cards()
          : this.#link.findAgents !== undefined
            ? (await this.#link.findAgents({})).agents
            : [];
      for (const card of found) {
        const id = objectAt(card, "")?.["id"];
        const algorithms = cardCompression(card);
        if (typeof id === "string" && algorithms.length > 0) cards.set(id, algorithms);
      }
    } catch {
      // No directory answer (the hub is away, a timeout): plain until the next read.
    }
    this.#cards = cards;
    this.#readAt = this.#now();
  }
}

/**
 * The payload of an outbound message as its recipient reads it: a compressed
 * one inflated (capped). A link checks §8.5 visibility on it. Throws
 * (`decompression_failed`, `decompressed_too_large`) when it cannot be read.
 */
export function inflatedPayload(message: Record<string, unknown>): unknown {
  if (typeof message["compressedPayload"] !== "string") return message["payload"];
  const inflated = decompressMessage(message as unknown as CompressedMessage);
  if (!inflated.ok) throw inflated.error;
  return inflated.value.payload;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isJsonObject(value)) return undefined;
  if (key === "") return value;
  const inner = value[key];
  return isJsonObject(inner) ? inner : undefined;
}
