/**
 * Federation (issue 44; docs/a2a-ocp-wire.md, "Federation"): a peer hub the
 * hub under test federates with must not be able to inject or extract more
 * than one of its agents could. The suite's fixture peer, with a valid hub
 * key the hub lists, misbehaves on the link; each check passes only when the
 * hub refuses with the named code and an honest message after it still
 * flows. They run only with `--federation-fixture` (else skipped).
 */
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { type Check, failed, passed } from "../context.js";
import { FixtureLink } from "../federation-fixture.js";
import { fixtureLink, honestFlows, NO_FIXTURE, node, stream } from "./federation-support.js";

export const federationForged: Check = {
  spec: {
    name: "federation-forged",
    sections: ["§8.1", "§13.1"],
    advisory: true,
    summary:
      "a peer hub forwarding a message in the name of one of the hub's own agents is refused federation_spoofed, and one in its own agent's name with a bad signature signature_invalid; honest traffic after it still flows",
  },
  async run(context) {
    const target = context.federation;
    if (target === undefined) return NO_FIXTURE;
    const victim = await context.join("fed-victim");
    const local = await context.join("fed-local");
    const { link, agent } = await fixtureLink(context, target);
    const secret = context.marker("fed-forged");
    // In the name of the hub's own agent, signed by a key the peer holds (and vouched for first, as an attacker would).
    const forger = generateIdentity(victim.id.id);
    link.vouch([createAgentProfile(forger, { extra: { visibility: "public" } }, nativeEd25519)]);
    const forged = context.signed(forger, {
      type: "ocp.knowledge.stream",
      to: local.id.id,
      payload: stream([node(victim.id.id, secret, "public")]),
    });
    const asLocal = await link.answerTo(link.forward(forged.text), context.answerTimeoutMs);
    // In its own agent's name, signed by another key than its card's.
    const badKey = generateIdentity(agent.id);
    const badSig = context.signed(badKey, {
      type: "ocp.knowledge.stream",
      to: local.id.id,
      payload: stream([node(agent.id, secret, "public")]),
    });
    const asOwn = await link.answerTo(link.forward(badSig.text), context.answerTimeoutMs);
    const honest = await honestFlows(context, link, agent, local);
    const leaked = local.peer.delivered().some((text) => text.includes(secret));
    const problems = [
      asLocal === "federation_spoofed"
        ? ""
        : `a message in a local agent's name was answered ${asLocal}, not federation_spoofed`,
      asOwn === "signature_invalid"
        ? ""
        : `a message with a bad signature was answered ${asOwn}, not signature_invalid`,
      leaked ? "a forged message reached the hub's agent" : "",
      honest,
    ].filter((p) => p !== "");
    return problems.length === 0
      ? passed(
          "in a local agent's name: federation_spoofed; bad signature: signature_invalid; neither delivered; the honest message after them acked and delivered",
        )
      : failed(problems.join("; "));
  },
};

export const federationReplay: Check = {
  spec: {
    name: "federation-replay",
    sections: ["§8.3", "§13.1"],
    advisory: true,
    summary:
      "a message the hub accepted from a peer, forwarded again under a new link sequence number, on the same link and on a new one, is refused replay_detected and delivered once",
  },
  async run(context) {
    const target = context.federation;
    if (target === undefined) return NO_FIXTURE;
    const local = await context.join("fed-local");
    const { link, agent } = await fixtureLink(context, target);
    const marker = context.marker("fed-replayed");
    const message = context.signed(agent, {
      type: "ocp.knowledge.stream",
      to: local.id.id,
      payload: stream([node(agent.id, marker, "public")]),
    });
    const seq = link.forward(message.text);
    const first = await link.answerTo(seq, context.answerTimeoutMs);
    if (first !== "ack") return failed(`an honest forwarded message was answered ${first}`);
    await local.peer.receivedMarker(marker, context.answerTimeoutMs);
    const replayed = await link.answerTo(link.forward(message.text), context.answerTimeoutMs);
    // Again on a new link (the hub's replay window of the first is gone with it), under a new seq.
    const again = await FixtureLink.open(target, "peer", context.answerTimeoutMs);
    context.track(again.peer);
    const relinked = await again.answerTo(
      again.forward(message.text, 1_000),
      context.answerTimeoutMs,
    );
    const honest = await honestFlows(context, again, agent, local);
    const copies = local.peer.delivered().filter((text) => text.includes(marker)).length;
    const problems = [
      replayed === "replay_detected"
        ? ""
        : `the replay under a new seq was answered ${replayed}, not replay_detected`,
      relinked === "replay_detected"
        ? ""
        : `the replay on a new link was answered ${relinked}, not replay_detected`,
      copies === 1 ? "" : `the hub's agent got the message ${copies} times`,
      honest,
    ].filter((p) => p !== "");
    return problems.length === 0
      ? passed(
          "replay under a new seq: replay_detected; delivered once; honest traffic after it flows",
        )
      : failed(problems.join("; "));
  },
};

export const federationIdentity: Check = {
  spec: {
    name: "federation-identity",
    sections: ["§7.3", "§13.1"],
    advisory: true,
    summary:
      "a peer hub vouching for a card with the id of one of the hub's own agents, or outside the agent prefixes its federate entry gives it, is refused federation_spoofed; the hub's agent still gets what is sent to it",
  },
  async run(context) {
    const target = context.federation;
    if (target === undefined) return NO_FIXTURE;
    const local = await context.join("fed-local");
    const { link, agent } = await fixtureLink(context, target);
    // The hub's own agent's id with the peer's key, and an id of no prefix of the peer's.
    const squat = generateIdentity(local.id.id);
    const outside = generateIdentity(`a2a://ocp-test-elsewhere/${context.marker("fed-outside")}`);
    link.vouch([
      createAgentProfile(squat, { extra: { visibility: "public" } }, nativeEd25519),
      createAgentProfile(outside, { extra: { visibility: "public" } }, nativeEd25519),
    ]);
    const timeout = context.answerTimeoutMs;
    const [claimed, foreign] = await Promise.all([
      link.refusedCard(local.id.id, timeout).catch(() => "no refusal"),
      link.refusedCard(outside.id, timeout).catch(() => "no refusal"),
    ]);
    // The other fixture agent, honest, still reaches the real local agent.
    const honest = await honestFlows(context, link, agent, local);
    const problems = [
      claimed === "federation_spoofed"
        ? ""
        : `a card with a local agent's id: ${claimed}, not federation_spoofed`,
      foreign === "federation_spoofed"
        ? ""
        : `a card outside the peer's prefixes: ${foreign}, not federation_spoofed`,
      honest,
    ].filter((p) => p !== "");
    return problems.length === 0
      ? passed(
          "a local agent's id and an id outside the peer's prefixes: both federation_spoofed; the real agent still served",
        )
      : failed(problems.join("; "));
  },
};

export { federationFlood, federationWithheld } from "./federation-extract.js";
