import MiniSearch from "minisearch";
import { MIN_RELEVANCE } from "./limits.js";

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
  /** Relevance in [MIN_RELEVANCE, 1] (see {@link ResourceRanker}). */
  readonly score: number;
}

/** English words that say nothing about what a goal is about. */
const STOP_WORDS = new Set(
  "a about an and any are as at be but by can do does for from has have how i if in into is it its me my of on or our so than that the their them then there these this those to was we were what when where whether which who why will with you your".split(
    " ",
  ),
);

const tokenize = (text: string) =>
  text.split(/[^\p{L}\p{N}]+/u).filter((token) => token.length > 0);

/** A goal's search term, or null for a stop word or a single character. */
function goalTerm(token: string): string | null {
  const term = token.toLowerCase();
  return term.length < 2 || STOP_WORDS.has(term) ? null : term;
}

/**
 * A BM25 ranker (MiniSearch) over resource names, titles, descriptions, URIs
 * and, when indexed, contents. Names and titles weigh most.
 *
 * Only what is relevant is returned, never filler to use up a budget: the
 * goal's stop words and single characters are not searched; a term matches
 * as a prefix from 3 characters and with one edit in five (fuzzy) from 5. A
 * resource's relevance is its BM25 score over the best score of the goal,
 * times the share of the goal's terms it matches; one under
 * {@link MIN_RELEVANCE} is left out. A goal that matches nothing, or only
 * stop words, ranks nothing.
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
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: "OR",
        processTerm: goalTerm,
      },
      tokenize,
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

  /** The documents relevant to `goal`, best first; ties keep the server's order. */
  rank(goal: string): Ranked<T>[] {
    const terms = new Set(
      tokenize(goal)
        .map(goalTerm)
        .filter((term) => term !== null),
    );
    if (terms.size === 0) return [];
    const hits = this.#index.search(goal);
    const top = Math.max(0, ...hits.map((hit) => hit.score));
    if (!(top > 0)) return [];
    return hits
      .map((hit) => {
        const share = Math.min(1, new Set(hit.queryTerms).size / terms.size);
        const score = Math.min(1, Math.max(0, (hit.score / top) * share));
        return { doc: this.#docs[hit.id as number]!, score, id: hit.id as number };
      })
      .filter((hit) => hit.score >= MIN_RELEVANCE)
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .map(({ doc, score }) => ({ doc, score }));
  }
}
