import MiniSearch from "minisearch";

/** One MCP resource as the ranker sees it. */
export interface RankedDocument {
  readonly uri: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** The contents, when they were cheap enough to read while indexing. */
  readonly text?: string | undefined;
}

export interface Ranked<T extends RankedDocument> {
  readonly doc: T;
  /** Relevance in [0, 1]: the BM25 score over the best score of the query. */
  readonly score: number;
}

/**
 * A BM25 ranker (MiniSearch) over resource names, titles, descriptions, URIs
 * and, when indexed, contents. Names and titles weigh most. Scores are
 * normalised to [0, 1] (F1) by the top score of each query.
 */
export class ResourceRanker<T extends RankedDocument> {
  readonly #index: MiniSearch<{ id: number }>;
  readonly #docs: readonly T[];

  constructor(docs: readonly T[]) {
    this.#docs = docs;
    this.#index = new MiniSearch<{ id: number }>({
      fields: ["name", "title", "description", "uri", "text"],
      storeFields: [],
      searchOptions: {
        boost: { name: 3, title: 3, description: 2, uri: 1, text: 1 },
        prefix: true,
        fuzzy: 0.2,
        combineWith: "OR",
      },
      tokenize: (text) => text.split(/[^\p{L}\p{N}]+/u).filter((token) => token.length > 0),
    });
    this.#index.addAll(
      docs.map((doc, id) => ({
        id,
        name: doc.name,
        title: doc.title ?? "",
        description: doc.description ?? "",
        uri: doc.uri,
        text: doc.text ?? "",
      })),
    );
  }

  get size(): number {
    return this.#docs.length;
  }

  /** The documents matching `goal`, best first; ties keep the server's order. */
  rank(goal: string): Ranked<T>[] {
    const hits = this.#index.search(goal);
    const top = hits[0]?.score ?? 0;
    if (!(top > 0)) return [];
    return hits
      .map((hit) => ({ doc: this.#docs[hit.id as number]!, score: hit.score / top, id: hit.id }))
      .sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))
      .map(({ doc, score }) => ({ doc, score: Math.min(1, Math.max(0, score)) }));
  }
}
