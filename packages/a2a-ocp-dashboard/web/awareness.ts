/** The awareness board: every agent, blocked ones first, filterable, virtualized. */
import { isBlocked, summarize } from "../src/summary.js";
import type { AgentView } from "../src/views.js";
import { ago, el, VirtualList } from "./vlist.js";

const ORDER: Record<string, number> = { online: 1, away: 2, offline: 3 };
const rank = (a: AgentView) => (isBlocked(a) ? 0 : (ORDER[a.presence] ?? 4));

export class AwarenessBoard {
  readonly #list: VirtualList<AgentView>;
  #agents: AgentView[] = [];
  #filter = "";

  constructor(
    container: HTMLElement,
    filter: HTMLInputElement,
    readonly counts: HTMLElement,
  ) {
    this.#list = new VirtualList<AgentView>(container, 30, (agent, row) => {
      // An offline agent's last status is history: shown as such, never as a blocker.
      const live = agent.presence !== "offline";
      const blocked = isBlocked(agent);
      row.dataset["agent"] = agent.id;
      row.dataset["status"] = live ? (agent.status ?? "") : "";
      row.dataset["presence"] = agent.presence;
      row.dataset["blocked"] = String(blocked);
      const status = agent.status === undefined ? "—" : live ? agent.status : `was ${agent.status}`;
      row.append(
        el("span", agent.id, { class: "id", title: agent.id }),
        el("span", agent.presence, { class: `badge ${agent.presence}` }),
        el("span", status, { class: `status ${live ? (agent.status ?? "") : "past"}` }),
        el("span", agent.task ?? "", { class: "task" }),
        el("span", blocked ? (agent.blockedOn ?? "") : "", { class: "blocked" }),
        el("span", ago(agent.lastSeen), { class: "seen" }),
      );
    });
    filter.addEventListener("input", () => {
      this.#filter = filter.value.trim().toLowerCase();
      this.#draw();
    });
  }

  update(agents: Iterable<AgentView>): void {
    this.#agents = [...agents].sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
    this.#draw();
  }

  #draw(): void {
    const f = this.#filter;
    const shown =
      f === ""
        ? this.#agents
        : this.#agents.filter((a) =>
            [a.id, a.status, a.task, a.blockedOn, a.presence].some((v) =>
              v?.toLowerCase().includes(f),
            ),
          );
    this.#list.items = shown;
    const by = summarize(this.#agents, [], []);
    this.counts.textContent = `${this.#agents.length} agents: ${by.online} online, ${by.away} away, ${by.offline} offline; ${by.blocked} blocked${f === "" ? "" : ` (${shown.length} shown)`}`;
  }
}
