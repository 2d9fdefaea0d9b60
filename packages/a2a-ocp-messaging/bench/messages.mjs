// The messages the benches send: one sender (ALICE, an identity generated per
// run), a knowledge node, and the two shapes every bench mixes in (a stream
// of two nodes, an awareness beacon with none). Built against dist.
import { createMessage, generateIdentity } from "../dist/index.js";

export const ALICE = "a2a://bench-alice";
export const alice = generateIdentity(ALICE);
/** The key lookup a pipeline verifies ALICE's signatures with. */
export const lookupKey = (id) => (id === ALICE ? alice.publicKey : undefined);

/** Knowledge node `i` created by ALICE, with `extra` members laid over it. */
export const benchNode = (i, extra) => ({
  id: `node-${i}`,
  type: "code.solution",
  title: "WebSocket memory leak fix",
  data: { code: "ws.on('close', () => { connections.delete(id); })", tested: true },
  confidence: 0.92,
  timestamp: "2026-10-13T10:25:00Z",
  createdBy: ALICE,
  tags: ["websocket", "memory-leak", "fix"],
  ...extra,
});

/** An `ocp.knowledge.stream` of nodes `i` and `i + 1`, ALICE to bob. */
export const streamMessage = (i) =>
  createMessage({
    type: "ocp.knowledge.stream",
    from: ALICE,
    to: "a2a://bench-bob",
    payload: {
      streamId: "s",
      nodes: [benchNode(i), benchNode(i + 1)],
      isIncremental: true,
      sequenceNumber: i,
    },
  });

/** An `ocp.awareness.beacon` from ALICE to bob and carol. */
export const beaconMessage = (i) =>
  createMessage({
    type: "ocp.awareness.beacon",
    from: ALICE,
    to: ["a2a://bench-bob", "a2a://bench-carol"],
    payload: { status: "working", availability: "busy", currentContext: { task: `task ${i}` } },
  });

/** Message `i` of a mixed run: a stream, `middle(i)` and a beacon in turn. */
export const mixedMessage = (i, middle) =>
  i % 3 === 0 ? streamMessage(i) : i % 3 === 1 ? middle(i) : beaconMessage(i);
