/**
 * Federation checks of what leaves and how much comes in: a peer hub gets
 * none of the hub's team, workspace or private knowledge (and cannot push a
 * team node in), and a peer flooding its link is refused
 * `federation_over_budget` while another organisation's link keeps working.
 */
import { type Check, failed, passed } from "../context.js";
import { FixtureLink } from "../federation-fixture.js";
import {
  FEDERATION_FLOOD_FRAME_BYTES,
  FEDERATION_FLOOD_FRAMES,
  FEDERATION_FLOOD_WAIT_MS,
} from "../limits.js";
import { fixtureLink, honestFlows, NO_FIXTURE, node, stream } from "./federation-support.js";

export const federationWithheld: Check = {
  spec: {
    name: "federation-withheld",
    sections: ["§8.5", "§13.1"],
    advisory: true,
    summary:
      "team, workspace and private nodes of the hub's agents, even sent straight to a peer's agent, never go over the link (a public node sent after them does), and a team node a peer forwards in is refused federation_withheld",
  },
  async run(context) {
    const target = context.federation;
    if (target === undefined) return NO_FIXTURE;
    // A public card: its public knowledge may cross, so only the nodes' own visibility holds the rest back.
    const local = await context.joinClaiming("fed-local", { visibility: "public" });
    const { link, agent } = await fixtureLink(context, target);
    // The link is up and the peer's agent known: an honest message has come through first.
    const before = await honestFlows(context, link, agent, local);
    if (before !== "") return failed(`the honest link does not work: ${before}`);
    const secrets: string[] = [];
    for (const level of ["team", "workspace", "private"]) {
      const secret = context.marker(`fed-${level}`);
      secrets.push(secret);
      for (const to of [agent.id, "broadcast"]) {
        const message = context.signed(local.id, {
          type: "ocp.knowledge.stream",
          to,
          payload: stream([node(local.id.id, secret, level)]),
        });
        local.peer.send(message.text);
        await local.peer.answerTo(message.id, context.answerTimeoutMs);
      }
    }
    const marker = context.marker("fed-public");
    const after = context.signed(local.id, {
      type: "ocp.knowledge.stream",
      to: agent.id,
      payload: stream([node(local.id.id, marker, "public")]),
    });
    local.peer.send(after.text);
    const crossed = await link.peer
      .waitFor(
        () => (link.forwarded().some((raw) => raw.includes(marker)) ? true : undefined),
        "the public node over the link",
        context.answerTimeoutMs,
      )
      .catch(() => false);
    const leaked = secrets.filter((s) => link.forwarded().some((raw) => raw.includes(s)));
    // The other way: the peer pushes a team node of its own agent in.
    const team = context.signed(agent, {
      type: "ocp.knowledge.stream",
      to: local.id.id,
      payload: stream([node(agent.id, context.marker("fed-team-in"), "team")]),
    });
    const pushed = await link.answerTo(link.forward(team.text), context.answerTimeoutMs);
    const honest = await honestFlows(context, link, agent, local);
    const problems = [
      crossed ? "" : "the public node sent after them never went over the link",
      leaked.length === 0 ? "" : `went over the link: ${leaked.join(", ")}`,
      pushed === "federation_withheld"
        ? ""
        : `a team node forwarded in was answered ${pushed}, not federation_withheld`,
      honest,
    ].filter((p) => p !== "");
    return problems.length === 0
      ? passed(
          "team, workspace and private nodes (direct and broadcast) never forwarded, the public one after them was; a team node pushed in: federation_withheld; honest traffic flows",
        )
      : failed(problems.join("; "));
  },
};

export const federationFlood: Check = {
  spec: {
    name: "federation-flood",
    sections: ["§12.3", "§13.1"],
    advisory: true,
    summary: `a peer hub sending ${FEDERATION_FLOOD_FRAMES} forwarded messages of ${FEDERATION_FLOOD_FRAME_BYTES} bytes at once is refused federation_over_budget (its link may be closed), still after it dials again, and another organisation's link still delivers`,
  },
  async run(context) {
    const target = context.federation;
    if (target === undefined) return NO_FIXTURE;
    const local = await context.join("fed-local");
    const { link } = await fixtureLink(context, target);
    const honestSide = await fixtureLink(context, target, "honest");
    // Large frames that are cheap to refuse (JSON of no message): the budget counts them before any check.
    const padding = JSON.stringify({ flood: "x".repeat(FEDERATION_FLOOD_FRAME_BYTES - 12) });
    for (let seq = 1; seq <= FEDERATION_FLOOD_FRAMES; seq += 1) link.forward(padding, seq);
    const over = await link.peer
      .waitFor(
        () =>
          link
            .received("ocp.fed.reject")
            .find((r) => r.payload["code"] === "federation_over_budget")
            ? "refused"
            : link.peer.closed !== undefined
              ? `closed ${link.peer.closed.code} without federation_over_budget`
              : undefined,
        "federation_over_budget",
        FEDERATION_FLOOD_WAIT_MS,
      )
      .catch(() => "neither refused nor closed");
    // Dialling again does not refill the organisation's budget within its window.
    const again = await FixtureLink.open(target, "peer", context.answerTimeoutMs);
    context.track(again.peer);
    const redialled = await again
      .answerTo(again.forward(padding, FEDERATION_FLOOD_FRAMES + 1), context.answerTimeoutMs)
      .catch(() => (again.peer.closed === undefined ? "no answer" : "closed"));
    const honest = await honestFlows(context, honestSide.link, honestSide.agent, local);
    const problems = [
      over === "refused" ? "" : `the flood: ${over}`,
      redialled === "federation_over_budget" || redialled === "closed"
        ? ""
        : `after dialling again the peer's next message was answered ${redialled}, not federation_over_budget`,
      honest === "" ? "" : `another organisation's link: ${honest}`,
    ].filter((p) => p !== "");
    return problems.length === 0
      ? passed(
          `${FEDERATION_FLOOD_FRAMES} frames of ${FEDERATION_FLOOD_FRAME_BYTES} bytes at once: federation_over_budget, and still after dialling again; the honest peer's message after it acked and delivered`,
        )
      : failed(problems.join("; "));
  },
};
