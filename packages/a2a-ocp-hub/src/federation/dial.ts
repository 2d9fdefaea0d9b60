/**
 * The dialling side of a hub link: a WebSocket to the peer's URL (transport
 * `@ocp/transport-ws`), announced with `ocp.fed.hello`; the link counts only
 * once the peer's `ocp.fed.welcome` is signed by the key the federate file
 * lists for it over this dial's challenge (else closed 4001). A lost link is
 * dialled again with exponential backoff and jitter
 * ({@link FEDERATION_BACKOFF_BASE_MS} to {@link FEDERATION_BACKOFF_MAX_MS}),
 * for as long as the hub runs, a refused one included (the peer's operator
 * may fix its file).
 */
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { CLOSE_CODES, type Connection, WsClient } from "@ocp/transport-ws";
import { challenge, hello, verifyWelcome } from "./auth.js";
import type { FederationPeer } from "./config.js";
import { FEDERATION_BACKOFF_BASE_MS, FEDERATION_BACKOFF_MAX_MS } from "./limits.js";

/** Attempts of one transport client before it is replaced by a new one (after the longest delay). */
const ATTEMPTS_PER_CLIENT = 1_000;

export class Dialer {
  readonly peer: FederationPeer;
  readonly #identity: AgentIdentity;
  readonly #onLink: (connection: Connection) => void;
  readonly #onRefused: (reason: string) => void;
  readonly #maxPayloadBytes: number | undefined;
  #client: WsClient | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    peer: FederationPeer,
    identity: AgentIdentity,
    hooks: {
      onLink: (connection: Connection) => void;
      onRefused: (reason: string) => void;
      maxPayloadBytes?: number;
    },
  ) {
    this.peer = peer;
    this.#identity = identity;
    this.#onLink = hooks.onLink;
    this.#onRefused = hooks.onRefused;
    this.#maxPayloadBytes = hooks.maxPayloadBytes;
  }

  start(): void {
    if (this.#stopped || this.peer.url === undefined) return;
    let own = challenge();
    const client = new WsClient({
      url: this.peer.url,
      announce: (nonce) => {
        own = challenge();
        return hello(this.#identity, nonce, own);
      },
      reconnect: true,
      reconnectBaseMs: FEDERATION_BACKOFF_BASE_MS,
      reconnectMaxMs: FEDERATION_BACKOFF_MAX_MS,
      reconnectMaxAttempts: ATTEMPTS_PER_CLIENT,
      ...(this.#maxPayloadBytes === undefined ? {} : { maxPayloadBytes: this.#maxPayloadBytes }),
    });
    this.#client = client;
    client.on("registered", (registration) => {
      if (!verifyWelcome(registration.payload["fedWelcome"], this.peer, own)) {
        const reason = `federation_unknown_peer: ${this.peer.url} did not prove it is ${this.peer.hubId}`;
        this.#onRefused(reason);
        registration.connection.close(CLOSE_CODES.AUTHENTICATION_FAILED, reason.slice(0, 120));
        return;
      }
      this.#onLink(registration.connection);
    });
    client.once("close", (info) => {
      if (this.#stopped) return;
      if (
        info.code === CLOSE_CODES.AUTHENTICATION_FAILED ||
        info.code === CLOSE_CODES.REGISTRATION_REFUSED
      ) {
        this.#onRefused(info.reason);
      }
      this.#timer = setTimeout(() => this.start(), FEDERATION_BACKOFF_MAX_MS);
      this.#timer.unref();
    });
    client.connect().catch(() => {}); // A refusal or an unreachable peer: `close` dials again.
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    await this.#client?.close(CLOSE_CODES.GOING_AWAY, "hub shutting down");
  }
}
