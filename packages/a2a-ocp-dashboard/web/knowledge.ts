/** Knowledge flow: recent streams and updates (virtualized) and a force-directed graph. */
import { forceCenter, forceLink, forceManyBody, forceSimulation } from "d3-force";
import type { GraphView, KnowledgeView } from "../src/views.js";
import { ago, el, VirtualList } from "./vlist.js";

export function knowledgeList(container: HTMLElement): VirtualList<KnowledgeView> {
  return new VirtualList<KnowledgeView>(container, 30, (k, row) => {
    row.dataset["kind"] = k.kind;
    if (k.contradiction) row.classList.add("contradiction");
    const titles = k.nodes.map((n) =>
      n.hidden ? `(${n.visibility}: content hidden)` : (n.title ?? n.id),
    );
    const domains = [
      ...new Set(k.nodes.flatMap((n) => (n.domain === undefined ? [] : [n.domain]))),
    ];
    const visibilities = [...new Set(k.nodes.map((n) => n.visibility))];
    row.append(
      el("span", k.kind, { class: "badge" }),
      el("span", k.from, { class: "id", title: k.from }),
      el("span", titles.join("; ") || "(no node)", { class: "titles", title: titles.join("\n") }),
      el("span", domains.join(", ")),
      el("span", `→ ${k.recipients ?? "bus"}${k.excluded > 0 ? ` (${k.excluded} excluded)` : ""}`),
      el("span", visibilities.join(", ")),
      el("span", ago(k.at), { class: "seen" }),
    );
  });
}

interface SimNode {
  id: string;
  author: string;
  label: string;
  hidden: boolean;
  x?: number;
  y?: number;
}

const SVG = "http://www.w3.org/2000/svg";
const svgEl = (tag: string, attributes: Record<string, string | number>) => {
  const element = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, String(v));
  return element;
};

/** Colour of an author: a stable hue from its id, never red (red marks contradictions). */
function hue(author: string): number {
  let h = 0;
  for (const c of author) h = (h * 31 + c.charCodeAt(0)) % 280;
  return 40 + h;
}

/** Lays the graph out with d3-force (a fixed number of ticks, no animation) and draws it. */
export function drawGraph(svg: SVGSVGElement, graph: GraphView): void {
  const width = 800;
  const height = 420;
  const nodes: SimNode[] = graph.nodes.map((n) => ({ ...n }));
  const ids = new Set(nodes.map((n) => n.id));
  const links = graph.edges
    .filter((e) => ids.has(e.source) && ids.has(e.target))
    .map((e) => ({ ...e }));
  // A few nodes spread over the canvas; many stay compact enough to fit.
  const spread = nodes.length <= 30;
  forceSimulation(nodes)
    .force("charge", forceManyBody().strength(spread ? -200 : -40))
    .force(
      "link",
      forceLink<SimNode, (typeof links)[number] & { source: string; target: string }>(
        links as never,
      )
        .id((d) => d.id)
        .distance(spread ? 110 : 50),
    )
    .force("center", forceCenter(width / 2, height / 2))
    .stop()
    .tick(150);
  const clamp = (v: number | undefined, max: number) =>
    Math.max(12, Math.min(max - 12, v ?? max / 2));
  const children: SVGElement[] = [];
  for (const link of links as unknown as Array<{
    source: SimNode;
    target: SimNode;
    contradiction: boolean;
    relationship: string;
  }>) {
    const line = svgEl("line", {
      x1: clamp(link.source.x, width),
      y1: clamp(link.source.y, height),
      x2: clamp(link.target.x, width),
      y2: clamp(link.target.y, height),
      class: link.contradiction ? "edge contradiction" : "edge",
    });
    line.append(svgEl("title", {}));
    line.lastChild!.textContent = link.relationship;
    children.push(line);
  }
  for (const node of nodes) {
    const group = svgEl("g", {
      transform: `translate(${clamp(node.x, width)},${clamp(node.y, height)})`,
    });
    const contradiction = node.label.startsWith("⚠");
    group.append(
      svgEl("circle", {
        r: 7,
        class: contradiction ? "node contradiction" : node.hidden ? "node hidden" : "node",
        fill: `hsl(${hue(node.author)}, 60%, 55%)`,
      }),
    );
    const title = svgEl("title", {});
    title.textContent = `${node.label} — ${node.author}`;
    group.append(title);
    if (nodes.length <= 60) {
      const text = svgEl("text", { x: 10, y: 4 });
      text.textContent = node.label.length > 28 ? `${node.label.slice(0, 27)}…` : node.label;
      group.append(text);
    }
    children.push(group);
  }
  svg.replaceChildren(...children);
  svg.setAttribute("aria-label", `Knowledge graph: ${nodes.length} nodes, ${links.length} edges`);
}
