import type { KnowledgeNode, QueryFinding } from "@ocp/a2a-ocp-messaging";
import MiniSearch from "minisearch";
import { nodeDomains } from "./subscriptions.js";

/**
 * Ranking over the local graph for collective queries (§5.2.2): BM25 as
 * MiniSearch computes it (the library the OCP demo provider uses), over a
 * node's title (boosted), description, tags, type and the strings in its
 * data. Query terms drop English stop words and one-letter tokens; terms of
 * four letters or more also match as prefixes, of five or more with one
 * edit in five (fuzzy). A finding's relevance is its BM25 score divided by
 * the best score of the query, times the share of the query's terms it
 * matched, so a node that matches one word of five ranks low even when it is
 * the only match; findings under {@link MIN_RELEVANCE} are dropped. Ties
 * break on node id, so results are deterministic.
 */

/** Findings below this relevance are not reported. */
export const MIN_RELEVANCE = 0.15;

const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from how i in is it its of on or our s should the their there this to was we what what's whats when where which who why will with you your".split(
    " ",
  ),
);

function queryTerm(term: string): string | null {
  const t = term.toLowerCase();
  return t.length < 2 || STOP_WORDS.has(t) ? null : t;
}

interface Entry {
  id: string;
  title: string;
  description: string;
  tags: string;
  type: string;
  text: string;
}

function strings(value: unknown, out: string[], depth = 0): void {
  if (depth > 8) return;
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out, depth + 1);
  else if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) strings(v, out, depth + 1);
  }
}

function entry(node: KnowledgeNode): Entry {
  const text: string[] = [];
  strings(node.data, text);
  return {
    id: node.id,
    title: node.title,
    description: node.description ?? "",
    tags: node.tags.join(" "),
    type: node.type,
    text: text.join(" "),
  };
}

/** Options of one search. */
export interface SearchOptions {
  /** Extra terms (a structured query's keywords). */
  readonly keywords?: readonly string[];
  /** Only nodes of these domains (when non-empty). */
  readonly domains?: readonly string[];
  readonly limit: number;
}

/** The first sentence-sized piece of a node's text, for a finding's excerpt. */
export function excerptOf(node: KnowledgeNode): string {
  const parts: string[] = [];
  if (node.description !== undefined) parts.push(node.description);
  strings(node.data, parts);
  const text = parts.join(" ").replace(/\s+/g, " ").trim();
  return text.length > 240 ? `${text.slice(0, 237)}...` : text;
}

/** BM25 search over a set of nodes. */
export function searchNodes(
  nodes: readonly KnowledgeNode[],
  query: string,
  options: SearchOptions,
): {
  findings: QueryFinding[];
  nodesSearched: number;
} {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const index = new MiniSearch<Entry>({
    fields: ["title", "description", "tags", "type", "text"],
    storeFields: [],
    searchOptions: {
      boost: { title: 2, tags: 1.5 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      combineWith: "OR",
      processTerm: queryTerm,
    },
  });
  index.addAll(nodes.map(entry));
  const text = [query, ...(options.keywords ?? [])].join(" ");
  const queryTerms = new Set(
    MiniSearch.getDefault("tokenize")(text, "")
      .map((t: string) => queryTerm(t))
      .filter((t: string | null): t is string => t !== null),
  );
  const domains = options.domains ?? [];
  const results = index
    .search(text)
    .filter((r) => {
      if (domains.length === 0) return true;
      const node = byId.get(String(r.id));
      return node !== undefined && nodeDomains(node).some((d) => domains.includes(d));
    })
    .sort((a, b) => b.score - a.score || (String(a.id) < String(b.id) ? -1 : 1));
  const best = results[0]?.score ?? 1;
  const findings: QueryFinding[] = [];
  for (const r of results) {
    const node = byId.get(String(r.id));
    if (node === undefined) continue;
    const coverage = queryTerms.size === 0 ? 1 : Math.min(1, r.queryTerms.length / queryTerms.size);
    const relevance = Math.min(1, Math.max(0, (r.score / best) * coverage));
    if (relevance < MIN_RELEVANCE) continue;
    findings.push({
      node,
      relevance,
      excerpt: excerptOf(node),
      context: `matched ${Object.keys(r.match).join(", ")}`,
    });
  }
  findings.sort((a, b) => b.relevance - a.relevance || (a.node.id < b.node.id ? -1 : 1));
  return { findings: findings.slice(0, options.limit), nodesSearched: nodes.length };
}
