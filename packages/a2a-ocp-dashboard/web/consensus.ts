/** Proposals: tally against quorum, deadline countdown, every vote with its verified flag. */
import type { ProposalView } from "../src/views.js";
import { el } from "./vlist.js";

const STATUS_ORDER: Record<string, number> = { open: 0, approved: 1, rejected: 1, timeout: 1 };

function countdown(deadline: number): string {
  const s = Math.round((deadline - Date.now()) / 1000);
  return s <= 0 ? "voting period over" : `${s} s left`;
}

function card(p: ProposalView): HTMLElement {
  const cast = p.tally.approve + p.tally.reject + p.tally.abstain;
  const article = el("article", undefined, {
    class: "proposal",
    "data-proposal": p.id,
    "data-status": p.status,
    "data-projected": p.projected,
    "aria-label": `Proposal ${p.topic}: ${p.status}`,
  });
  const head = el("h3", p.topic);
  head.append(" ", el("span", p.status, { class: `badge ${p.status}`, "data-role": "status" }));
  const meta = el(
    "p",
    `by ${p.proposer} · ${p.rule}${p.threshold === undefined ? "" : ` ${p.threshold}`} · quorum ${cast}/${p.requiredVotes} · `,
  );
  meta.append(
    el("span", p.status === "open" ? countdown(p.deadline) : "closed", {
      "data-deadline": String(p.deadline),
    }),
  );
  const tally = el(
    "p",
    `approve ${p.tally.approve} · reject ${p.tally.reject} · abstain ${p.tally.abstain}`,
    { class: "tally", "data-role": "tally" },
  );
  // Before the proposer decides, what the counted votes say is a projection, not an outcome.
  if (p.status === "open" && p.projected !== "open") {
    tally.append(
      el("span", ` · counted votes say ${p.projected}, waiting for ${p.proposer} to decide`, {
        class: "projected",
        "data-role": "projected",
      }),
    );
  }
  const meter = el("meter", undefined, {
    min: "0",
    max: String(Math.max(p.requiredVotes, cast)),
    value: String(cast),
    "aria-label": "votes against quorum",
  });
  const votes = el("table", undefined, { class: "votes" });
  const header = el("tr");
  for (const h of ["Voter", "Vote", "Signature"]) header.append(el("th", h, { scope: "col" }));
  votes.append(header);
  for (const v of p.votes) {
    const row = el("tr", undefined, { "data-voter": v.voter });
    row.append(
      el("td", v.voter),
      el("td", v.vote),
      el("td", v.verified ? "✓ verified" : "✗ not verified", { class: v.verified ? "ok" : "bad" }),
    );
    votes.append(row);
  }
  article.append(head, meta, tally, meter, votes);
  return article;
}

export function drawProposals(container: HTMLElement, proposals: Iterable<ProposalView>): void {
  const list = [...proposals].sort(
    (a, b) =>
      (STATUS_ORDER[a.status] ?? 1) - (STATUS_ORDER[b.status] ?? 1) || b.deadline - a.deadline,
  );
  if (list.length === 0) {
    container.replaceChildren(el("p", "No proposal seen yet."));
    return;
  }
  container.replaceChildren(...list.slice(0, 100).map(card));
}

/** Refreshes the countdowns (once a second) without redrawing. */
export function tickCountdowns(container: HTMLElement): void {
  for (const span of container.querySelectorAll<HTMLElement>("[data-deadline]")) {
    if (span.textContent !== "closed")
      span.textContent = countdown(Number(span.dataset["deadline"]));
  }
}
