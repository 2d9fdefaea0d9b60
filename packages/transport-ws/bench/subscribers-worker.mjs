// Worker thread of the broadcast bench: opens `count` subscriber sockets to
// `url`, optionally goes through the a2a+ocp lifecycle on each (ack → signed-
// looking announcement → registered), then counts every message received.
// The main thread asks "tell me when the total reaches N"; counting happens
// here so the receivers' CPU is not the broadcaster's.
import { parentPort, workerData } from "node:worker_threads";
import { WebSocket } from "ws";

const { url, count, lifecycle } = workerData;
let total = 0;
let waitingFor = Number.POSITIVE_INFINITY;

function check() {
  if (total >= waitingFor) {
    waitingFor = Number.POSITIVE_INFINITY;
    parentPort.postMessage({ type: "reached", total });
  }
}

function open(i) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
    let registered = !lifecycle;
    ws.on("error", reject);
    ws.on("message", (data) => {
      if (registered) {
        total += 1;
        check();
        return;
      }
      const message = JSON.parse(String(data));
      if (message.type === "ocp.connection.ack") {
        ws.send(
          JSON.stringify({
            protocol: "a2a+ocp",
            version: "1.0.0",
            type: "agent.announce",
            from: `a2a://bench-${i}.example`,
            payload: { agent: `a2a://bench-${i}.example`, nonce: message.payload.nonce },
          }),
        );
      } else if (message.type === "ocp.connection.registered") {
        registered = true;
        resolve(ws);
      } else {
        reject(new Error(`unexpected ${message.type}`));
      }
    });
    ws.once("open", () => {
      if (!lifecycle) resolve(ws);
    });
  });
}

// Connect in parallel batches: a few dozen handshakes in flight at a time.
const sockets = [];
for (let i = 0; i < count; i += 25) {
  const batch = [];
  for (let j = i; j < Math.min(count, i + 25); j++) batch.push(open(j));
  sockets.push(...(await Promise.all(batch)));
}
parentPort.postMessage({ type: "ready" });
parentPort.on("message", (message) => {
  if (message.type === "wait") {
    waitingFor = message.total;
    check();
  } else if (message.type === "close") {
    for (const ws of sockets) ws.terminate();
    parentPort.postMessage({ type: "closed" });
  }
});
