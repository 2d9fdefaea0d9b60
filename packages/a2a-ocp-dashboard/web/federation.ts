/**
 * The Federation view: one card per peer organisation (link up or down, the
 * agents its hub vouched for, what crossed each way, refusals by code) and
 * the recent crossings and refusals, newest first. Content is what the
 * server sent: node titles only where the dashboard's redaction shows them.
 */
import type { CrossingView, FederationView, PeerView, StrangersView } from "../src/federation.js";
import { ago, el, VirtualList } from "./vlist.js";

function peerCard(peer: PeerView): HTMLElement {
  const card = el("article", undefined, {
    class: "peer",
    "data-peer": peer.hubId,
    "data-link": peer.open ? "up" : "down",
  });
  const codes = Object.entries(peer.refusedByCode).sort((a, b) => b[1] - a[1]);
  const counts: Array<[string, string]> = [
    ["Agents vouched for", String(peer.agents)],
    ["Forwarded", String(peer.forwarded)],
    ["Received", String(peer.received)],
    ["Refused", String(peer.refused)],
  ];
  card.append(
    el("h3", peer.hubId),
    el("span", peer.open ? "link up" : "link down", {
      class: `badge ${peer.open ? "online" : "offline"}`,
      "data-field": "link",
    }),
    el("dl"),
    el("ul"),
  );
  card
    .querySelector("dl")!
    .append(...counts.flatMap(([k, v]) => [el("dt", k), el("dd", v, { "data-counter": k })]));
  card
    .querySelector("ul")!
    .append(...codes.map(([code, n]) => el("li", `${code}: ${n}`, { "data-code": code })));
  return card;
}

/** One line for refused link attempts by hubs that did not authenticate: a count, never rows. */
function strangerLine(strangers: StrangersView): HTMLElement {
  const last =
    strangers.lastClaimed === undefined ? "" : `; latest claimed ${strangers.lastClaimed}`;
  const seen = strangers.lastAt === undefined ? "" : ` ${ago(strangers.lastAt)}`;
  return el(
    "p",
    `Refused link attempts by hubs not in the federate file: ${strangers.refused}${last}${seen}`,
    {
      class: "strangers",
      "data-field": "strangers",
      "data-count": String(strangers.refused),
    },
  );
}

export class FederationPanel {
  readonly crossings: VirtualList<CrossingView>;

  constructor(
    readonly peers: HTMLElement,
    crossingsBox: HTMLElement,
  ) {
    this.crossings = new VirtualList<CrossingView>(crossingsBox, 30, (c, row) => {
      row.dataset["outcome"] = c.outcome;
      row.dataset["direction"] = c.direction;
      if (c.id !== undefined) row.dataset["id"] = c.id;
      const titles = c.nodes.map((n) =>
        n.hidden ? `(${n.visibility}: content hidden)` : (n.title ?? n.id),
      );
      const why = c.outcome === "refused" ? `${c.code ?? ""} ${c.reason ?? ""}`.trim() : "";
      row.append(
        el("span", c.outcome, { class: `badge ${c.outcome === "refused" ? "bad" : "online"}` }),
        el("span", `${c.direction === "out" ? "→" : "←"} ${c.peer}`, {
          class: "id",
          title: c.peer,
        }),
        el("span", c.id ?? "", { class: "id", title: c.id ?? "" }),
        el("span", c.from, { class: "id", title: c.from }),
        el("span", c.to.join(", "), { class: "id", title: c.to.join("\n") }),
        el("span", c.type ?? ""),
        el("span", why || titles.join("; "), { class: "titles", title: why || titles.join("\n") }),
        el("span", ago(c.at), { class: "seen" }),
      );
    });
  }

  update(view: FederationView): void {
    this.peers.replaceChildren(
      ...(view.peers.length === 0 ? [el("p", "no peer organisation")] : view.peers.map(peerCard)),
      ...(view.strangers.refused > 0 ? [strangerLine(view.strangers)] : []),
    );
    this.crossings.items = [...view.crossings].reverse();
  }
}
