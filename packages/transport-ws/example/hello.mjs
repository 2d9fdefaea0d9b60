#!/usr/bin/env node
// A hub and an agent over @ocp/transport-ws: the agent proves it holds the
// key of its a2a:// URI by signing the server's nonce; a forger is refused.
// Run after `pnpm build`: node example/hello.mjs
import { generateKeyPairSync, sign, verify } from "node:crypto";
import { connectWs, createWsServer, WsClient } from "../dist/index.js";

const signed = (nonce, uri) => Buffer.from(`a2a-ocp-v1 announce\n${nonce}\n${uri}`);
const alice = { uri: "a2a://alice.acme.example", ...generateKeyPairSync("ed25519") };
const mallory = generateKeyPairSync("ed25519");
const announce =
  (uri, privateKey) =>
  (nonce, { lastSeq }) =>
    JSON.stringify({
      protocol: "a2a+ocp",
      version: "1.0.0",
      type: "agent.announce",
      from: uri,
      payload: {
        agent: uri,
        nonce,
        lastSeq,
        signature: sign(null, signed(nonce, uri), privateKey).toString("base64"),
      },
    });

// The hub knows alice's public key; the layer above decides what an announcement is.
const server = await createWsServer({
  authenticate(announcement, nonce) {
    const { agent, signature } = announcement.payload ?? {};
    if (agent !== alice.uri) return { refused: "unknown agent" };
    const ok = verify(
      null,
      signed(nonce, agent),
      alice.publicKey,
      Buffer.from(signature, "base64"),
    );
    return ok ? { agentId: agent } : { refused: "bad signature" };
  },
});
server.on("connection", (connection) => {
  console.log(`hub: registered ${connection.agentId}`);
  connection.on("message", (raw) => {
    console.log(`hub: got ${raw}`);
    connection.send('{"type":"ocp.event.notification","payload":{"seq":1}}');
  });
  connection.on("close", (info) =>
    console.log(`hub: ${connection.agentId} closed ${info.code} (notice: ${info.notice?.reason})`),
  );
});

const client = await connectWs({
  url: server.url,
  announce: announce(alice.uri, alice.privateKey),
  onMessage: (raw) => {
    console.log(`agent: got ${raw}`);
    client.lastSeq = JSON.parse(raw).payload.seq;
  },
});
console.log(`agent: registered as ${client.agentId}`);
client.send('{"type":"ocp.event.publish","payload":{"topic":"deploys"}}');
await new Promise((resolve) => client.once("message", resolve));
console.log(`agent: lastSeq is now ${client.lastSeq}`);
await client.close(1000, "done");

const forger = new WsClient({ url: server.url, announce: announce(alice.uri, mallory.privateKey) });
await forger
  .connect()
  .catch((error) =>
    console.log(`forger: ${error.code} (${error.details.code} ${error.details.reason})`),
  );
await server.close();
