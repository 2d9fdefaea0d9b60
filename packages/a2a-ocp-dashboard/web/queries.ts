/** Collective queries: the question, each response as it arrives, then the synthesis. */
import type { QueryView, SynthesisView } from "../src/views.js";
import { ago, el } from "./vlist.js";

const STATUS_ORDER: Record<string, number> = { collecting: 0, synthesized: 1, unanswered: 1 };

function list(title: string, items: string[], role: string): HTMLElement[] {
  if (items.length === 0) return [];
  const ul = el("ul", undefined, { "data-role": role });
  for (const item of items) ul.append(el("li", item));
  return [el("h4", title), ul];
}

function synthesis(s: SynthesisView): HTMLElement {
  const section = el("section", undefined, { class: "synthesis", "data-role": "synthesis" });
  section.append(
    el(
      "h4",
      `Synthesis by ${s.from} · confidence ${s.confidence.toFixed(2)} · sources ${s.sources.join(", ") || "none"}`,
    ),
  );
  if (s.answer === undefined) {
    section.append(
      el(
        "p",
        `(content hidden: built from knowledge whose content is withheld; ${s.consensusCount} consensus, ${s.dissentCount} dissent)`,
        { class: "hidden-note" },
      ),
    );
    return section;
  }
  const answer = el("div", undefined, { class: "answer", "data-role": "answer" });
  for (const line of s.answer.split("\n")) answer.append(el("p", line));
  section.append(
    answer,
    ...list("Key points", s.keyPoints ?? [], "key-points"),
    ...list("Consensus", s.consensus ?? [], "consensus"),
    ...list("Dissent", s.dissent ?? [], "dissent"),
  );
  return section;
}

function card(q: QueryView): HTMLElement {
  const article = el("article", undefined, {
    class: "query",
    "data-query": q.id,
    "data-status": q.status,
    "aria-label": `Query ${q.query}: ${q.status}`,
  });
  const head = el("h3", `“${q.query}”`);
  head.append(" ", el("span", q.status, { class: `badge ${q.status}`, "data-role": "status" }));
  const wanted = q.minResponses === undefined ? "" : ` (waits for ${q.minResponses})`;
  const meta = el(
    "p",
    `asked by ${q.asker} · ${ago(q.at)} · ${q.responses.length} responses${wanted}`,
    { "data-role": "responses-count" },
  );
  const responses = el("table", undefined, { class: "votes" });
  const header = el("tr");
  for (const h of ["Responder", "Nodes found", "Confidence", "Signature"]) {
    header.append(el("th", h, { scope: "col" }));
  }
  responses.append(header);
  for (const r of q.responses) {
    const row = el("tr", undefined, { "data-responder": r.from });
    row.append(
      el("td", r.from),
      el("td", String(r.findings)),
      el("td", r.confidence.toFixed(2)),
      el("td", r.verified ? "✓ verified" : "✗ not verified", { class: r.verified ? "ok" : "bad" }),
    );
    responses.append(row);
  }
  article.append(head, meta, responses);
  if (q.synthesis !== undefined) article.append(synthesis(q.synthesis));
  return article;
}

export function drawQueries(container: HTMLElement, queries: Iterable<QueryView>): void {
  const sorted = [...queries].sort(
    (a, b) => (STATUS_ORDER[a.status] ?? 1) - (STATUS_ORDER[b.status] ?? 1) || b.at - a.at,
  );
  if (sorted.length === 0) {
    container.replaceChildren(el("p", "No collective query seen yet."));
    return;
  }
  container.replaceChildren(...sorted.slice(0, 100).map(card));
}
