// Runs in headless Chromium (test/browser.test.ts): plain browser JavaScript
// against the minified bundle of the browser entry (@ocp/a2a-ocp-messaging/browser).
import {
  createAgentProfile,
  createMessage,
  decodeMessage,
  generateIdentity,
  keyLookupFromProfiles,
  signObject,
  verifyAgentProfile,
  verifyMessage,
} from "./small.js";

const outcome = (result) => (result.ok ? "ok" : result.error.code);
const thrown = (build) => {
  try {
    build();
    return "built";
  } catch (error) {
    return error.code;
  }
};

export async function run() {
  const alice = generateIdentity("a2a://alice");
  const mallory = generateIdentity("a2a://mallory");
  const profiles = [createAgentProfile(alice)];
  const lookupKey = keyLookupFromProfiles(profiles);

  const vote = createMessage({
    type: "ocp.consensus.vote",
    from: alice.id,
    to: "a2a://bob",
    payload: { proposalId: "prop-1", vote: "approve", votedBy: alice.id },
  });
  const signed = signObject(vote, alice.secretKey);
  const received = JSON.parse(JSON.stringify(signed));
  const decoded = decodeMessage(received);
  const forgedProfile = { ...createAgentProfile(mallory), id: alice.id };

  return {
    secureContext: globalThis.isSecureContext,
    id: vote.id,
    profileVerifies: verifyAgentProfile(profiles[0]).ok,
    decoded: outcome(decoded),
    vote: decoded.ok ? decoded.value.payload.vote : undefined,
    verify: outcome(await verifyMessage(received, lookupKey)),
    forged: {
      tampered: outcome(
        await verifyMessage(
          { ...received, payload: { ...received.payload, vote: "reject" } },
          lookupKey,
        ),
      ),
      signedByAnother: outcome(await verifyMessage(signObject(vote, mallory.secretKey), lookupKey)),
      unsigned: outcome(await verifyMessage(vote, lookupKey)),
      profile: thrown(() => keyLookupFromProfiles([forgedProfile])),
    },
    invalid: thrown(() =>
      createMessage({ type: "ocp.consensus.vote", from: "alice", to: "a2a://bob", payload: {} }),
    ),
  };
}
