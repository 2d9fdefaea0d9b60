import type {
  CollectiveResponsePayload,
  CollectiveSynthesisPayload,
  QueryFinding,
} from "@ocp/a2a-ocp-messaging";
import type { MessageReceipt } from "./receipt.js";

/**
 * Synthesis of collective responses (§5.2.3). A {@link Synthesizer} turns the
 * responses into an answer; an LLM-backed one can be plugged into
 * `OCPAgent` in place of the default {@link ExtractiveSynthesizer}, which is
 * extractive and deterministic:
 *
 * - Findings are grouped by claim: the node's title, normalised (case,
 *   whitespace, punctuation), so two agents that hold the same fix agree.
 * - A group's score is the sum over its findings of relevance × confidence.
 * - `consensus`: groups reported by two or more agents.
 * - `dissent`: groups whose nodes contradict another finding: a node that
 *   names another (by id or title) with `metadata.contradicts`, or two nodes
 *   with the same title whose data differ and whose `metadata.stance` differ.
 * - `answer`: the best three groups' excerpts, best first; `keyPoints`: the
 *   titles of the best five; `sources`: the responding agents, sorted.
 * - `confidence`: the mean of the responses' confidence, or 0 with none.
 * - Responses are read in agent-URI order, so arrival order changes nothing.
 */

/** One response as the querier received it. */
export interface ReceivedResponse {
  readonly from: string;
  readonly payload: CollectiveResponsePayload;
  /** The signed message it came in (absent when built by hand). */
  readonly receipt?: MessageReceipt;
}

/** Builds the synthesis of a collective query; may be async (an LLM call). */
export interface Synthesizer {
  synthesize(
    query: string,
    queryId: string,
    responses: readonly ReceivedResponse[],
  ): CollectiveSynthesisPayload | Promise<CollectiveSynthesisPayload>;
}

interface Group {
  key: string;
  title: string;
  excerpt: string;
  score: number;
  agents: Set<string>;
  findings: Array<{ from: string; finding: QueryFinding }>;
}

function claimKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function stance(finding: QueryFinding): string | undefined {
  const value = finding.node.metadata?.["stance"];
  return typeof value === "string" ? value : undefined;
}

function contradicts(finding: QueryFinding): string[] {
  const value = finding.node.metadata?.["contradicts"];
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The default synthesiser: extractive, deterministic, no model. */
export class ExtractiveSynthesizer implements Synthesizer {
  constructor(private readonly now: () => Date = () => new Date()) {}

  synthesize(
    query: string,
    queryId: string,
    received: readonly ReceivedResponse[],
  ): CollectiveSynthesisPayload {
    // Arrival order must not matter: responses are taken in agent-URI order.
    const responses = [...received].sort((a, b) =>
      a.from < b.from ? -1 : a.from > b.from ? 1 : 0,
    );
    const groups = new Map<string, Group>();
    for (const response of responses) {
      for (const finding of response.payload.findings) {
        const key = claimKey(finding.node.title);
        let group = groups.get(key);
        if (group === undefined) {
          group = {
            key,
            title: finding.node.title,
            excerpt: "",
            score: 0,
            agents: new Set(),
            findings: [],
          };
          groups.set(key, group);
        }
        group.score += finding.relevance * finding.node.confidence;
        group.agents.add(response.from);
        group.findings.push({ from: response.from, finding });
        const excerpt = finding.excerpt ?? finding.node.description ?? "";
        if (excerpt.length > group.excerpt.length) group.excerpt = excerpt;
      }
    }
    const ranked = [...groups.values()].sort(
      (a, b) => b.score - a.score || (a.key < b.key ? -1 : 1),
    );
    const dissent = new Set<string>();
    const allFindings = ranked.flatMap((g) => g.findings);
    for (const { finding, from } of allFindings) {
      for (const target of contradicts(finding)) {
        const other = allFindings.find(
          (f) =>
            f.finding.node.id === target || claimKey(f.finding.node.title) === claimKey(target),
        );
        if (other !== undefined) {
          dissent.add(
            `${finding.node.title} (${from}) contradicts ${other.finding.node.title} (${other.from})`,
          );
        }
      }
    }
    for (const group of ranked) {
      const stances = new Map<string, string>();
      for (const { finding, from } of group.findings) {
        const s = stance(finding);
        if (s !== undefined && !stances.has(s)) stances.set(s, from);
      }
      if (stances.size > 1) {
        dissent.add(
          `${group.title}: ${[...stances].map(([s, from]) => `${from} says ${s}`).join("; ")}`,
        );
      }
    }
    const best = ranked.slice(0, 3);
    const answer =
      best.length === 0
        ? `No agent had knowledge about: ${query}`
        : best
            .map((g) => (g.excerpt === "" ? `${g.title}.` : `${g.title}: ${g.excerpt}`))
            .join("\n");
    const confidence =
      responses.length === 0
        ? 0
        : responses.reduce((sum, r) => sum + r.payload.confidence, 0) / responses.length;
    return {
      queryId,
      answer,
      keyPoints: ranked.slice(0, 5).map((g) => g.title),
      confidence: Math.min(1, Math.max(0, confidence)),
      consensus: ranked
        .filter((g) => g.agents.size >= 2)
        .map((g) => `${g.title} (${[...g.agents].sort().join(", ")})`),
      dissent: [...dissent].sort(),
      sources: [...new Set(responses.map((r) => r.from))].sort(),
      timestamp: this.now().toISOString(),
    };
  }
}
