/**
 * A stale connection is really dropped. When its pings go unanswered, the
 * NATS client closes the connection by first flushing what it still has to
 * write; on a half-open connection whose kernel send buffer is full (a hub
 * committing at full speed into a blackhole) that flush never completes, and
 * the client would stay on the dead connection until the partition heals. If
 * no `disconnect` follows a `staleConnection` within
 * {@link NATS_STALE_CLOSE_MS}, the socket is destroyed: the client sees it
 * closed and reconnects to another listed server.
 */
import type { NatsConnection } from "@nats-io/transport-node";
import { NATS_STALE_CLOSE_MS } from "./limits.js";

/** The client's socket, reached through its (untyped) protocol handler. */
interface SocketHolder {
  protocol?: { transport?: { socket?: { destroy(): void } } };
}

/** Watches `nc` until it closes; see the module comment. */
export function dropStaleConnections(nc: NatsConnection, closeMs = NATS_STALE_CLOSE_MS): void {
  let stale = 0;
  (async () => {
    for await (const status of nc.status()) {
      if (status.type === "staleConnection") {
        const which = ++stale;
        const socket = (nc as unknown as SocketHolder).protocol?.transport?.socket;
        setTimeout(() => {
          if (which === stale) socket?.destroy();
        }, closeMs).unref();
      } else if (status.type === "disconnect" || status.type === "reconnect") {
        stale += 1; // Closed as it should: nothing to force.
      }
    }
  })().catch(() => undefined);
}
