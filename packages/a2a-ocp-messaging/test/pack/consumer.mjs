// Runs in a fresh npm project outside the workspace (test/pack.heavy.test.ts),
// against the packed tarballs installed there: prints what it saw as JSON.
import {
  createAgentProfile,
  createMessage,
  generateIdentity,
  InboundPipeline,
  keyLookupFromProfiles,
  signObject,
  verifyMessage,
} from "@ocp/a2a-ocp-messaging";
import {
  createDecryptor,
  createNodeInboundPipeline,
  encryptMessage,
  generateIdentityWithEncryption,
  nativeEd25519,
  nativeEd25519Library,
  recipientFromProfile,
} from "@ocp/a2a-ocp-messaging/node";
import { AgentProfileSchema } from "@ocp/a2a-ocp-messaging/schemas";

const outcome = (result) => (result.ok ? "ok" : result.error.code);

const alice = generateIdentity("a2a://alice");
const bob = generateIdentityWithEncryption("a2a://bob");
const profiles = [createAgentProfile(alice), createAgentProfile(bob)];
const lookupKey = keyLookupFromProfiles(profiles);

const vote = createMessage({
  type: "ocp.consensus.vote",
  from: alice.id,
  to: bob.id,
  payload: { proposalId: "prop-1", vote: "approve", votedBy: alice.id },
});
const signed = signObject(vote, alice.secretKey);
const tampered = { ...signed, payload: { ...signed.payload, vote: "reject" } };

const inbox = new InboundPipeline({ lookupKey });
const sealed = signObject(
  encryptMessage(vote, [recipientFromProfile(profiles[1])]),
  alice.secretKey,
);
const nodeInbox = createNodeInboundPipeline({
  lookupKey,
  decrypt: createDecryptor({ agentId: bob.id, secretKey: bob.encryption.secretKey }),
});
const opened = await nodeInbox.accept(JSON.stringify(sealed));

console.log(
  JSON.stringify({
    profileSchema: profiles.every((profile) => AgentProfileSchema.safeParse(profile).success),
    verify: outcome(await verifyMessage(signed, lookupKey)),
    verifyNative: outcome(await verifyMessage(signed, lookupKey, nativeEd25519)),
    verifyTampered: outcome(await verifyMessage(tampered, lookupKey)),
    accepted: outcome(await inbox.accept(JSON.stringify(signed))),
    replayed: outcome(await inbox.accept(JSON.stringify(signed))),
    decrypted: opened.ok ? opened.value.message.payload.vote : outcome(opened),
    // libsodium when the project installed the optional peer sodium-native, else node:crypto.
    library: nativeEd25519Library(),
  }),
);
