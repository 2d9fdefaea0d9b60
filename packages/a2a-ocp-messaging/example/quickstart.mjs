// Two agents, one signed vote, one encrypted knowledge stream, through the
// inbound pipeline. Run: pnpm build && node example/quickstart.mjs
import {
  createAgentProfile,
  createMessage,
  keyLookupFromProfiles,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import {
  createDecryptor,
  createNodeInboundPipeline,
  encryptMessage,
  generateIdentityWithEncryption,
  recipientFromProfile,
} from "@ocp/a2a-ocp-messaging/node";

const alice = generateIdentityWithEncryption("a2a://alice");
const bob = generateIdentityWithEncryption("a2a://bob");

// Profiles are what agents publish; each binds a URI to keys and is self-signed.
const profiles = [createAgentProfile(alice), createAgentProfile(bob)];
const lookupKey = keyLookupFromProfiles(profiles);

// Bob's inbox: size cap, JSON, schema, signature, freshness, replay, then decryption.
const inbox = createNodeInboundPipeline({
  lookupKey,
  decrypt: createDecryptor({ agentId: bob.id, secretKey: bob.encryption.secretKey }),
});

// The builder types the payload by the message type.
const vote = createMessage({
  type: "ocp.consensus.vote",
  from: alice.id,
  to: bob.id,
  payload: { proposalId: "prop-456", vote: "approve", votedBy: alice.id },
});
const wire = JSON.stringify(signObject(vote, alice.secretKey));

const first = await inbox.accept(wire);
console.log(
  "vote:",
  first.ok ? `${first.value.message.type} ${first.value.message.payload.vote}` : first.error.code,
);
const again = await inbox.accept(wire);
console.log("same vote again:", again.ok ? "accepted" : again.error.code);
const forged = await inbox.accept(wire.replace('"approve"', '"reject"'));
console.log("vote changed in transit:", forged.ok ? "accepted" : forged.error.code);

// End-to-end encryption: only Bob can read it; the signature covers the ciphertext.
const stream = createMessage({
  type: "ocp.knowledge.stream",
  from: alice.id,
  to: bob.id,
  payload: {
    streamId: "stream-1",
    isIncremental: true,
    sequenceNumber: 1,
    nodes: [
      {
        id: "node-1",
        type: "code.solution",
        title: "WebSocket memory leak fix",
        data: { tested: true },
        confidence: 0.92,
        timestamp: new Date().toISOString(),
        createdBy: alice.id,
        tags: ["websocket"],
        visibility: "team",
      },
    ],
  },
});
const sealed = signObject(
  encryptMessage(stream, [recipientFromProfile(profiles[1])]),
  alice.secretKey,
);
console.log(
  "on the wire:",
  sealed.encrypted,
  sealed.payload.algorithm,
  sealed.payload.recipientKeys.map((k) => k.agentId).join(","),
);
const opened = await inbox.accept(JSON.stringify(sealed));
console.log(
  "bob reads:",
  opened.ok ? opened.value.message.payload.nodes[0].title : opened.error.code,
);
