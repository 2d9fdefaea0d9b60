/** Hub health: counters, two uPlot time series, refusals by reason and the recent ones. */
import uPlot from "uplot";
import type { HealthView, RefusalView } from "../src/views.js";
import { ago, el, VirtualList } from "./vlist.js";

export class HealthPanel {
  readonly #rate: uPlot;
  readonly #connections: uPlot;
  readonly refusals: VirtualList<RefusalView>;

  constructor(
    readonly counters: HTMLElement,
    readonly reasons: HTMLElement,
    rateBox: HTMLElement,
    connectionsBox: HTMLElement,
    refusalsBox: HTMLElement,
  ) {
    const base = { width: 380, height: 180, scales: { x: { time: true } } };
    this.#rate = new uPlot(
      {
        ...base,
        title: "Messages/s",
        series: [{}, { label: "in", stroke: "#2a7ae2" }, { label: "out", stroke: "#d9822b" }],
      },
      [[], [], []],
      rateBox,
    );
    this.#connections = new uPlot(
      { ...base, title: "Connections", series: [{}, { label: "connected", stroke: "#3a9a5b" }] },
      [[], []],
      connectionsBox,
    );
    this.refusals = new VirtualList<RefusalView>(refusalsBox, 30, (r, row) => {
      row.dataset["code"] = r.code;
      row.dataset["reason"] = r.reason;
      row.append(
        el("span", r.reason, { class: "badge bad" }),
        el("span", r.code),
        el("span", r.from, { class: "id", title: r.from }),
        el("span", r.message, { class: "titles", title: r.message }),
        el("span", ago(r.at), { class: "seen" }),
      );
    });
  }

  update(health: HealthView, refusals: RefusalView[]): void {
    const rows: Array<[string, string | number]> = [
      ["Store", health.storeConnected ? "reachable" : "unreachable: durable sends refused"],
      ["Connections", health.connected],
      ["Agents known", health.known],
      ["Accepted", health.accepted],
      ["Delivered", health.delivered],
      ["Committed (store)", health.committed],
      ["Refused", health.rejected],
      ["Slow consumers closed", health.slowConsumerCloses],
      ["Peak outbound buffer", `${Math.round(health.peakOutboundBytes / 1024)} KiB`],
    ];
    this.counters.replaceChildren(
      ...rows.flatMap(([k, v]) => [el("dt", k), el("dd", String(v), { "data-counter": k })]),
    );
    const reasons = Object.entries(health.refusalsByReason).sort((a, b) => b[1] - a[1]);
    this.reasons.replaceChildren(
      ...(reasons.length === 0
        ? [el("li", "none")]
        : reasons.map(([reason, n]) => el("li", `${reason}: ${n}`, { "data-reason": reason }))),
    );
    const [t, inRate, outRate, connected] = health.series;
    this.#rate.setData([t, inRate, outRate]);
    this.#connections.setData([t, connected]);
    this.refusals.items = [...refusals].reverse();
  }
}
