// The peer of client.bench.mjs, in a process of its own so that its CPU is not
// counted: a `@ocp/transport-ws` server for the HubClient arms and a plain `ws`
// server for the raw arms, both answering every message with the same
// `ocp.hub.ack` frame a hub sends, and sending on request the `ocp.hub.deliver`
// frames of the messages in a JSON file (an array of message texts).
// Commands arrive on the raw connection: "deliver FILE" (to that connection)
// and "deliverHub FILE" (to the last HubClient connection).
import { readFileSync } from "node:fs";
import { encodeDeliver, encodeHubControl, HUB_TYPES } from "@ocp/a2a-ocp-messaging/internal";
import { createWsServer } from "@ocp/transport-ws";
import { WebSocketServer } from "ws";

const [agentId] = process.argv.slice(2);
const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
let seq = 0;

function ackOf(raw) {
  const at = raw.indexOf('"id":"');
  const id = raw.slice(at + 6, raw.indexOf('"', at + 6));
  return encodeHubControl(HUB_TYPES.ACK, {
    id,
    durable: true,
    recipients: 1,
    excluded: 0,
    expiresAt,
  });
}
const framesOf = (file) =>
  JSON.parse(readFileSync(file, "utf8")).map((text) => encodeDeliver(++seq, text));

let last;
const server = await createWsServer({
  host: "127.0.0.1",
  port: 0,
  authenticate: () => ({ agentId }),
});
server.on("connection", (connection) => {
  last = connection;
  connection.on("message", (raw) => {
    // Confirmations of deliveries need no answer.
    if (!raw.startsWith('{"protocol":"a2a+ocp","type":"ocp.hub.')) connection.send(ackOf(raw));
  });
});
const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
wss.on("connection", (ws) => {
  ws.on("message", (data) => {
    const raw = data.toString();
    if (raw.startsWith("deliverHub ")) for (const f of framesOf(raw.slice(11))) last.send(f);
    else if (raw.startsWith("deliver ")) for (const f of framesOf(raw.slice(8))) ws.send(f);
    else ws.send(ackOf(raw));
  });
});
await new Promise((resolve) => wss.once("listening", resolve));
process.stdout.write(`${server.url} ws://127.0.0.1:${wss.address().port}\n`);
