import { describe, expect, it } from "vitest";
import { searchNodes } from "../src/search.js";
import { matchesFilters, nodeDomains } from "../src/subscriptions.js";
import { ExtractiveSynthesizer } from "../src/synthesis.js";
import { node } from "./support.js";

const A = "a2a://a";
const corpus = [
  node({
    createdBy: A,
    id: "jwt",
    title: "Authentication uses JWT access tokens",
    description: "Short-lived tokens, refresh in a cookie",
    tags: ["auth"],
  }),
  node({
    createdBy: A,
    id: "oauth",
    title: "Login uses OAuth with GitHub",
    tags: ["auth", "login"],
  }),
  node({ createdBy: A, id: "react", title: "Frontend uses React 19" }),
  node({
    createdBy: A,
    id: "pg",
    title: "Database is PostgreSQL",
    metadata: { domain: "backend" },
  }),
];

describe("search and synthesis", () => {
  it("ranks by BM25 with stop words dropped, and leaves out nodes that match no meaningful term", () => {
    const { findings, nodesSearched } = searchNodes(
      corpus,
      "What's our approach to authentication?",
      { limit: 5 },
    );
    expect(nodesSearched).toBe(4);
    expect(findings.map((f) => f.node.id)).toEqual(["jwt"]);
    // Best BM25 score, but only one of the two meaningful terms ("approach" is nowhere).
    expect(findings[0]?.relevance).toBeCloseTo(0.5);
  });

  it("structured keywords widen the query and domains restrict it", () => {
    const wide = searchNodes(corpus, "authentication", { limit: 5, keywords: ["login", "auth"] });
    expect(wide.findings.map((f) => f.node.id).sort()).toEqual(["jwt", "oauth"]);
    expect(searchNodes(corpus, "database", { limit: 5, domains: ["frontend"] }).findings).toEqual(
      [],
    );
    expect(
      searchNodes(corpus, "database", { limit: 5, domains: ["backend"] }).findings.map(
        (f) => f.node.id,
      ),
    ).toEqual(["pg"]);
  });

  it('issue 40: a domain is a tag, the first segment of the type, or metadata.domain(s), so §5.2.1\'s `domains: ["backend", "security"]` finds spec-shaped nodes', () => {
    const specShaped = [
      node({ createdBy: A, id: "tagged", title: "Token rotation", tags: ["backend"] }),
      node({ createdBy: A, id: "typed", title: "Token policy", type: "security.policy" }),
      node({ createdBy: A, id: "meta", title: "Token store", metadata: { domains: ["backend"] } }),
      node({ createdBy: A, id: "other", title: "Token colours", tags: ["frontend"] }),
    ];
    const found = searchNodes(specShaped, "token", { limit: 5, domains: ["backend", "security"] });
    expect(found.findings.map((f) => f.node.id).sort()).toEqual(["meta", "tagged", "typed"]);
    expect(matchesFilters(specShaped[0]!, { domains: ["backend"] })).toBe(true);
    expect(matchesFilters(specShaped[1]!, { domains: ["security"] })).toBe(true);
    expect(matchesFilters(specShaped[3]!, { domains: ["backend"] })).toBe(false);
    expect(nodeDomains(specShaped[1]!)).toContain("security");
  });

  it("the extractive synthesis is deterministic: consensus needs two agents, contradictions are dissent, sources are sorted", () => {
    const finding = (n: ReturnType<typeof node>, relevance = 1) => ({ node: n, relevance });
    const jwt = corpus[0] as ReturnType<typeof node>;
    const sessions = node({
      createdBy: "a2a://c",
      title: "Authentication uses server sessions",
      metadata: { contradicts: "jwt" },
    });
    const responses = [
      {
        from: "a2a://b",
        payload: { queryId: "q", findings: [finding(jwt)], confidence: 0.9, processingTime: 1 },
      },
      {
        from: "a2a://a",
        payload: { queryId: "q", findings: [finding(jwt)], confidence: 0.8, processingTime: 1 },
      },
      {
        from: "a2a://c",
        payload: {
          queryId: "q",
          findings: [finding(sessions, 0.5)],
          confidence: 0.7,
          processingTime: 1,
        },
      },
    ];
    const synth = new ExtractiveSynthesizer(() => new Date("2026-01-01T00:00:00Z"));
    const first = synth.synthesize("auth?", "q", responses);
    expect(synth.synthesize("auth?", "q", [...responses].reverse())).toEqual(first);
    expect(first.consensus).toEqual(["Authentication uses JWT access tokens (a2a://a, a2a://b)"]);
    expect(first.dissent).toHaveLength(1);
    expect(first.dissent[0]).toContain("contradicts Authentication uses JWT access tokens");
    expect(first.sources).toEqual(["a2a://a", "a2a://b", "a2a://c"]);
    expect(first.answer.split("\n")[0]).toContain("JWT");
  });
});
