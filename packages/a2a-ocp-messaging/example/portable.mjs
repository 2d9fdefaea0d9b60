// The portable entry only (no node: module, so it also runs in a browser):
// sign, verify, tamper, reject; the hub's visibility and event rules.
// Run: pnpm build && node example/portable.mjs
import {
  createAgentProfile,
  createMessage,
  generateIdentity,
  InboundPipeline,
  keyLookupFromProfiles,
  matchesEventType,
  maySee,
  signObject,
} from "@ocp/a2a-ocp-messaging";

const alice = generateIdentity("a2a://alice");
const inbox = new InboundPipeline({
  lookupKey: keyLookupFromProfiles([createAgentProfile(alice)]),
});

const note = createMessage({
  type: "ocp.custom.note",
  from: alice.id,
  to: "a2a://bob",
  payload: { text: "deploy at noon" },
});
const wire = JSON.stringify(signObject(note, alice.secretKey));
const accepted = await inbox.accept(wire);
console.log(
  "signed note:",
  accepted.ok ? `verified ${accepted.value.verified}` : accepted.error.code,
);
const tampered = await inbox.accept(wire.replace("noon", "midnight"));
console.log("tampered note:", tampered.ok ? "accepted" : tampered.error.code);

// §8.5: who may see a node, as the hub and the agent runtime decide it.
const policy = {
  teamOf: (id) => (id === "a2a://eve" ? "sales" : "backend"),
  defaultVisibility: "workspace",
};
const node = { createdBy: alice.id, visibility: "team" };
console.log(
  "team node: bob",
  maySee(node, "a2a://bob", policy),
  "eve",
  maySee(node, "a2a://eve", policy),
);

// §5.5 event patterns: `*` is one segment, a final `**` one or more.
console.log(
  "code.* matches code.deployed:",
  matchesEventType("code.*", "code.deployed"),
  "code.a.b:",
  matchesEventType("code.*", "code.a.b"),
  "code.** matches code.a.b:",
  matchesEventType("code.**", "code.a.b"),
);
