// Runs in headless Chromium (test/browser.test.ts): plain browser JavaScript
// against the browser bundle of the package's root entry, served next to it.
import {
  createAgentProfile,
  createMessage,
  generateIdentity,
  InboundPipeline,
  keyLookupFromProfiles,
  signObject,
  verifyAgentProfile,
  verifyMessage,
} from "./messaging.js";

const outcome = (result) => (result.ok ? "ok" : result.error.code);

export async function run() {
  const alice = generateIdentity("a2a://alice");
  const bob = generateIdentity("a2a://bob");
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
  const wire = JSON.stringify(signed);
  const first = await inbox.accept(wire);

  return {
    secureContext: globalThis.isSecureContext,
    nodeGlobals: ["process", "Buffer", "require", "global"].filter((name) => name in globalThis),
    id: vote.id,
    profilesVerify: profiles.map((profile) => verifyAgentProfile(profile).ok),
    verify: outcome(await verifyMessage(signed, lookupKey)),
    verifyTampered: outcome(await verifyMessage(tampered, lookupKey)),
    verifyWrongSender: outcome(await verifyMessage({ ...signed, from: bob.id }, lookupKey)),
    inbox: {
      accepted: outcome(first),
      vote: first.ok ? first.value.message.payload.vote : undefined,
      replayed: outcome(await inbox.accept(wire)),
      tampered: outcome(await inbox.accept(JSON.stringify(tampered))),
      unsigned: outcome(await inbox.accept(JSON.stringify(vote))),
    },
  };
}
