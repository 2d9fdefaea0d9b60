// The cluster bench's message: a signed durable direct knowledge stream of
// about 900 bytes, the same for every arm (cluster.bench.mjs, cluster-agents.mjs).
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";

const pad = "x".repeat(300);

/** Message `i` from `from` to `to`, signed by `from`. */
export function wireFor(from, to, i) {
  return signObject(
    createMessage({
      type: "ocp.knowledge.stream",
      from: from.id,
      to: to.id,
      payload: {
        streamId: "bench",
        nodes: [
          {
            id: `n-${i}`,
            type: "code.solution",
            title: "WebSocket memory leak fix",
            data: { code: "ws.on('close', () => { connections.delete(id); })", pad },
            confidence: 0.9,
            timestamp: new Date().toISOString(),
            createdBy: from.id,
            tags: ["websocket"],
          },
        ],
        isIncremental: true,
        sequenceNumber: i,
      },
    }),
    from.secretKey,
    nativeEd25519,
  );
}
