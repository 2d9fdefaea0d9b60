// Two agents on a running hub: a committed send, a verified delivery, a
// refusal with its code, and a reconnect that resumes after the last
// delivery seen. Start a hub first (`npx ocp-hub`, from @ocp/a2a-ocp-hub,
// prints its URL), then: pnpm build && node example/hub-client.mjs ws://127.0.0.1:PORT/
import { HubClient } from "@ocp/a2a-ocp-client";
import { createMessage, generateIdentity, signObject } from "@ocp/a2a-ocp-messaging";

const url = process.argv[2];
if (url === undefined) {
  console.error("usage: node example/hub-client.mjs ws://HOST:PORT/ (the URL ocp-hub prints)");
  process.exit(2);
}
// Fresh ids on every run: the hub pins the first key it sees for an agent id.
const run = crypto.randomUUID().slice(0, 8);
const alice = generateIdentity(`a2a://alice-${run}`);
const bob = generateIdentity(`a2a://bob-${run}`);
const names = new Map([
  [alice.id, "alice"],
  [bob.id, "bob"],
]);
const next = (client) => new Promise((resolve) => client.once("message", resolve));
const show = ({ message, seq }) =>
  `#${seq} ${message.type} from ${names.get(message.from)} ${JSON.stringify(message.payload)}`;

const a = await HubClient.connect({ url, identity: alice });
let b = await HubClient.connect({ url, identity: bob });

// send() signs, and resolves once the hub acknowledged (durable: committed).
const got = next(b);
const receipt = await a.send({ type: "ocp.custom.hello", to: bob.id, payload: { text: "hi" } });
console.log(`alice -> bob: durable ${receipt.durable}, recipients ${receipt.recipients}`);
console.log("bob got", show(await got)); // verified with alice's profile, fetched from the hub

// A message that claims another sender is refused by the hub, with its code.
const forged = signObject(
  createMessage({ type: "ocp.custom.hello", from: bob.id, to: alice.id, payload: {} }),
  alice.secretKey,
);
await a.send(forged).catch((error) => console.log("forged sender refused:", error.code));

// Bob leaves; what alice sends meanwhile waits at the hub; bob resumes after lastSeq.
const lastSeq = b.lastSeq;
await b.close();
console.log(`bob left after #${lastSeq}`);
for (const n of [2, 3]) await a.send({ type: "ocp.custom.hello", to: bob.id, payload: { n } });
b = new HubClient({ url, identity: bob, lastSeq });
const missed = [];
const both = new Promise((resolve) =>
  b.on("message", (delivered) => {
    missed.push(delivered);
    if (missed.length === 2) resolve();
  }),
);
await b.connect();
await both;
for (const delivered of missed) console.log("bob resumed:", show(delivered));

await b.close();
await a.close();
await a.send({ type: "ocp.custom.hello", to: bob.id, payload: {} }).catch((error) => {
  console.log("send after close:", error.code);
});
