/**
 * Knowledge messages (`ocp.knowledge.stream`, `.update`, `.conflict`) and
 * the nodes found for a collective query (`ocp.collective.response`
 * findings) read into the recent-knowledge list and a bounded graph of the
 * nodes and edges the hub has seen, most recent first, contradictions
 * marked: an edge whose relationship names one, a node whose
 * `metadata.contradicts` is set (linked to the nodes it names, by id or
 * title, when both are shown), or a conflict of type `contradiction`.
 * Content passes through {@link nodeView}.
 */
import type { AcceptedEvent } from "./events.js";
import { record as obj, text as str } from "./read.js";
import { contradicts, nodeView, type RedactionPolicy } from "./redact.js";
import type { GraphView, KnowledgeView, NodeView } from "./views.js";

/** At most this many nodes and edges are read from one message. */
const PER_MESSAGE = { nodes: 50, edges: 100 };

const KINDS: Record<string, KnowledgeView["kind"]> = {
  "ocp.knowledge.stream": "stream",
  "ocp.knowledge.update": "update",
  "ocp.knowledge.conflict": "conflict",
  "ocp.collective.response": "response",
};

export class KnowledgeGraph {
  readonly #nodes = new Map<string, GraphView["nodes"][number]>();
  readonly #edges: GraphView["edges"] = [];
  /** Shown nodes: their title and the node their `metadata.contradicts` names. */
  readonly #shown = new Map<
    string,
    { title: string | undefined; contradicts: string | undefined }
  >();

  constructor(readonly limits: { graphNodes: number; graphEdges: number }) {}

  /** Reads one knowledge message into the graph; returns its entry for the recent list. */
  read(event: AcceptedEvent, payload: Record<string, unknown>, policy: RedactionPolicy) {
    const kind = KINDS[event.type] ?? "stream";
    const chunks = Array.isArray(payload["items"]) ? payload["items"].map(obj) : [payload];
    const raw: unknown[] = [];
    const edges: unknown[] = [];
    for (const chunk of chunks) {
      if (Array.isArray(chunk["nodes"])) raw.push(...chunk["nodes"]);
      if (Array.isArray(chunk["edges"])) edges.push(...chunk["edges"]);
      if (Array.isArray(chunk["newEdges"])) edges.push(...chunk["newEdges"]);
      if (Array.isArray(chunk["findings"]))
        raw.push(...chunk["findings"].map((f) => obj(f)["node"]));
      for (const update of Array.isArray(chunk["updates"]) ? chunk["updates"] : []) {
        raw.push({ ...obj(obj(update)["changes"]), id: obj(update)["nodeId"] });
      }
      if (kind === "conflict") raw.push(chunk["localVersion"], chunk["remoteVersion"]);
    }
    let contradiction = kind === "conflict" && payload["conflictType"] === "contradiction";
    const nodes: NodeView[] = [];
    for (const value of raw.slice(0, PER_MESSAGE.nodes)) {
      const view = nodeView(value, policy);
      if (view === undefined) continue;
      nodes.push(view);
      const named = contradicts(value);
      contradiction ||= named !== undefined;
      this.#node(view, named);
    }
    for (const value of edges.slice(0, PER_MESSAGE.edges)) {
      const edge = obj(value);
      const source = str(edge["source"]);
      const target = str(edge["target"]);
      if (source === undefined || target === undefined) continue;
      const relationship = str(edge["relationship"]) ?? "";
      const marked = /contradict/i.test(relationship);
      this.#edges.push({ source, target, relationship, contradiction: marked });
      if (this.#edges.length > this.limits.graphEdges) this.#edges.shift();
      contradiction ||= marked;
    }
    const item: KnowledgeView = {
      at: event.at,
      messageId: event.id,
      kind,
      from: event.from,
      streamId: str(payload["streamId"]),
      nodes,
      recipients: event.recipients,
      excluded: event.excluded,
      contradiction,
    };
    return item;
  }

  #node(view: NodeView, contradicts: string | undefined): void {
    const contradiction = contradicts !== undefined;
    this.#nodes.delete(view.id);
    this.#shown.delete(view.id);
    // What a shown node says of itself links it to others; a hidden one says nothing.
    if (!view.hidden) this.#shown.set(view.id, { title: view.title, contradicts });
    const label = view.hidden ? `(${view.visibility})` : (view.title ?? view.id);
    this.#nodes.set(view.id, {
      id: view.id,
      author: view.author,
      label: contradiction ? `⚠ ${label}` : label,
      hidden: view.hidden,
    });
    while (this.#nodes.size > this.limits.graphNodes) {
      const oldest = this.#nodes.keys().next().value!;
      this.#nodes.delete(oldest);
      this.#shown.delete(oldest);
    }
  }

  /**
   * The graph, most recent nodes first; edges between nodes it still holds.
   * An edge touching a node whose content is hidden shows only that it
   * exists: its relationship (text the author wrote about the hidden node)
   * and the contradiction read from it are withheld, decided at each view so
   * a node updated to another visibility takes its edges with it.
   */
  view(): GraphView {
    const nodes = [...this.#nodes.values()].reverse();
    const edges: GraphView["edges"] = [];
    for (const edge of this.#edges) {
      const source = this.#nodes.get(edge.source);
      const target = this.#nodes.get(edge.target);
      if (source === undefined || target === undefined) continue;
      edges.push(
        source.hidden || target.hidden
          ? { source: edge.source, target: edge.target, relationship: "", contradiction: false }
          : edge,
      );
    }
    edges.push(...this.#contradictions(edges.length));
    return { nodes, edges };
  }

  /** Links from each shown node with `metadata.contradicts` to the shown nodes it names. */
  #contradictions(already: number): GraphView["edges"] {
    const byName = new Map<string, string[]>();
    for (const [id, node] of this.#shown) {
      for (const name of new Set([id, node.title])) {
        if (name !== undefined) byName.set(name, [...(byName.get(name) ?? []), id]);
      }
    }
    const edges: GraphView["edges"] = [];
    for (const [source, node] of this.#shown) {
      if (node.contradicts === undefined) continue;
      for (const target of byName.get(node.contradicts) ?? []) {
        if (target === source || already + edges.length >= this.limits.graphEdges) continue;
        edges.push({ source, target, relationship: "contradicts", contradiction: true });
      }
    }
    return edges;
  }
}
