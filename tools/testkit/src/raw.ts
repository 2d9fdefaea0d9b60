import { type AgentIdentity, createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement, isHubFrame, parseDeliver } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { WebSocket } from "ws";

/** An agent on a raw WebSocket: registered with a real announcement, sending exact bytes. */
export interface RawAgent {
  ws: WebSocket;
  /** Every text frame received after registration, in order. */
  frames: string[];
  /** The messages the hub delivered: transient ones as sent, durable ones unwrapped from `ocp.hub.deliver`. */
  delivered(): string[];
  /** The hub's control frames (acks, rejects, …), parsed. */
  controls(): Array<{ type: string; payload: Record<string, unknown> }>;
  send(text: string): void;
  close(): void;
}

/**
 * Connects `id` to the hub at `url` on a raw socket (subprotocol a2a-ocp-v1),
 * answers the nonce with a signed announcement and resolves once registered:
 * what the test then sends is exactly the bytes it writes. `priorityOrder`:
 * the announcement asks for replay pages in priority order (`ocp.hub.batch`).
 */
export function rawAgent(
  url: string,
  id: AgentIdentity,
  timeoutMs = 10_000,
  options: { priorityOrder?: boolean; profile?: Record<string, unknown> } = {},
): Promise<RawAgent> {
  const profile = createAgentProfile(id, { extra: options.profile ?? {} }, nativeEd25519);
  const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
  const frames: string[] = [];
  return new Promise<RawAgent>((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`${id.id} did not register within ${timeoutMs} ms`));
    }, timeoutMs);
    let registered = false;
    ws.on("error", reject);
    ws.on("message", (data) => {
      const text = data.toString();
      if (registered) {
        frames.push(text);
        return;
      }
      const frame = JSON.parse(text) as { type: string; payload: { nonce: string } };
      if (frame.type === "ocp.connection.ack") {
        const { nonce } = frame.payload;
        ws.send(
          buildAnnouncement(id, profile, nonce, undefined, nativeEd25519, {
            ...(options.priorityOrder === undefined
              ? {}
              : { priorityOrder: options.priorityOrder }),
          }),
        );
      } else if (frame.type === "ocp.connection.registered") {
        registered = true;
        clearTimeout(timer);
        resolve({
          ws,
          frames,
          delivered: () =>
            frames.flatMap((f) => {
              if (!isHubFrame(f)) return [f];
              const delivery = parseDeliver(f);
              return delivery === undefined ? [] : [delivery.raw];
            }),
          controls: () =>
            frames
              .filter((f) => isHubFrame(f) && parseDeliver(f) === undefined)
              .map((f) => JSON.parse(f) as { type: string; payload: Record<string, unknown> }),
          send: (t) => ws.send(t),
          close: () => ws.close(),
        });
      }
    });
  });
}
