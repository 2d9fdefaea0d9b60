/**
 * The dashboard page: one EventSource (`/events`), a snapshot then deltas,
 * five views (six when the hub federates) behind keyboard-usable tabs
 * (arrows, Home/End, keys 1–6), and a
 * summary line whose counts come from the same rows the views draw.
 */
import { summarize } from "../src/summary.js";
import type { Delta, Snapshot } from "../src/views.js";
import { AwarenessBoard } from "./awareness.js";
import { drawProposals, tickCountdowns } from "./consensus.js";
import { FederationPanel } from "./federation.js";
import { HealthPanel } from "./health.js";
import { drawGraph, knowledgeList } from "./knowledge.js";
import { Model } from "./model.js";
import { drawQueries } from "./queries.js";
import { el } from "./vlist.js";

const $ = <T extends Element = HTMLElement>(id: string) =>
  document.getElementById(id) as unknown as T;

// A token given in the address bar is now in an HttpOnly cookie: drop it from the URL.
if (new URLSearchParams(location.search).has("token"))
  history.replaceState(null, "", location.pathname);

const model = new Model();
const board = new AwarenessBoard(
  $("agents"),
  $<HTMLInputElement>("agent-filter"),
  $("agent-counts"),
);
const knowledge = knowledgeList($("knowledge"));
const health = new HealthPanel(
  $("counters"),
  $("reasons"),
  $("chart-rate"),
  $("chart-connections"),
  $("refusals"),
);
const federation = new FederationPanel($("peers"), $("crossings"));
const ALL_VIEWS = ["awareness", "knowledge", "queries", "consensus", "health", "federation"];
/** The views this hub has: Federation only when it federates. */
let VIEWS = ALL_VIEWS.slice(0, 5);
let current = "awareness";
const dirty = new Set(VIEWS.concat("graph"));

function draw(): void {
  if (dirty.has("awareness")) board.update(model.agents.values());
  if (dirty.has("knowledge")) knowledge.items = [...model.knowledge].reverse();
  if (dirty.has("graph") && current === "knowledge") {
    drawGraph($<SVGSVGElement>("graph"), model.graph);
    dirty.delete("graph");
  }
  if (dirty.has("queries")) drawQueries($("queries"), model.queries.values());
  if (dirty.has("consensus")) drawProposals($("proposals"), model.proposals.values());
  if (dirty.has("health") && model.health) health.update(model.health, model.refusals);
  if (dirty.has("federation") && model.federation) federation.update(model.federation);
  // From the rows (live events), not the counters sampled once a second.
  const s = summarize(model.agents.values(), model.proposals.values(), model.queries.values());
  const part = (count: string, n: number, text: string) =>
    el("span", `${n} ${text}`, { "data-count": count, "data-value": String(n) });
  $("summary").replaceChildren(
    part("connected", s.connected, "connected"),
    " · ",
    part("blocked", s.blocked, "blocked"),
    " · ",
    part("queries", s.queries, s.queries === 1 ? "query" : "queries"),
    ` (${s.queriesOpen} collecting) · `,
    part("proposals", s.proposals, s.proposals === 1 ? "proposal" : "proposals"),
    ` (${s.proposalsOpen} open) · `,
    part("refusals", model.refusals.length, "refused recently"),
  );
  for (const view of VIEWS) dirty.delete(view);
}

let frame = 0;
function schedule(changed: Iterable<string>): void {
  for (const view of changed) dirty.add(view);
  if (frame === 0)
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
}

function select(view: string, focus: boolean): void {
  current = view;
  for (const name of ALL_VIEWS) {
    const tab = $(`tab-${name}`);
    const on = name === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(`view-${name}`).hidden = !on;
    if (on && focus) tab.focus();
  }
  history.replaceState(null, "", `#${view}`);
  schedule(view === "knowledge" ? ["graph"] : []);
}

$("tabs").addEventListener("click", (event) => {
  const tab = (event.target as HTMLElement).closest("[role=tab]");
  if (tab) select(tab.id.slice(4), true);
});
$("tabs").addEventListener("keydown", (event) => {
  const i = VIEWS.indexOf(current);
  const next: Record<string, number> = {
    ArrowRight: i + 1,
    ArrowLeft: i - 1,
    Home: 0,
    End: VIEWS.length - 1,
  };
  const to = next[event.key];
  if (to === undefined) return;
  event.preventDefault();
  select(VIEWS[(to + VIEWS.length) % VIEWS.length]!, true);
});
document.addEventListener("keydown", (event) => {
  const target = event.target as HTMLElement;
  if (target.tagName === "INPUT" || event.altKey || event.ctrlKey || event.metaKey) return;
  const n = Number(event.key);
  if (n >= 1 && n <= VIEWS.length) select(VIEWS[n - 1]!, true);
});
const initial = location.hash.slice(1);
select(VIEWS.includes(initial) ? initial : "awareness", false);
if (initial === "federation") history.replaceState(null, "", "#federation"); // until the snapshot says

const status = $("connection");
const events = new EventSource("events");
events.addEventListener("snapshot", (event) => {
  model.reset(JSON.parse((event as MessageEvent<string>).data) as Snapshot);
  $("tab-federation").hidden = model.federation === undefined;
  VIEWS = ALL_VIEWS.filter((view) => view !== "federation" || model.federation !== undefined);
  if (!VIEWS.includes(current)) select("awareness", false);
  else if (location.hash === "#federation" && current !== "federation") select("federation", false);
  status.textContent = "live";
  status.dataset["state"] = "live";
  schedule(VIEWS.concat("graph"));
});
events.addEventListener("delta", (event) => {
  schedule(model.merge(JSON.parse((event as MessageEvent<string>).data) as Delta));
});
events.addEventListener("error", () => {
  status.textContent = "reconnecting…";
  status.dataset["state"] = "reconnecting";
});
setInterval(() => {
  tickCountdowns($("proposals"));
  schedule(["awareness"]); // "last seen" ages
}, 1000);
