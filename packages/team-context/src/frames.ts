import type { MessageReceipt } from "@ocp/a2a-ocp-agent";
import { canonicalize, type KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { countTokens } from "@ocp/host";
import type { ContextFrame, FrameKind, Provenance } from "@ocp/types";
import { frameKindOf } from "./kinds.js";
import { MAX_FRAME_CONTENT_CHARS } from "./limits.js";

/** Provenance `type` of the knowledge node a frame was made from. */
export const NODE_PROVENANCE = "a2a+ocp.node";
/** Provenance `type` of the signed message the node (or answer) arrived in. */
export const MESSAGE_PROVENANCE = "a2a+ocp.message";

/** An agent's short name: its URI without `a2a://`. */
export function agentName(uri: string): string {
  return uri.startsWith("a2a://") ? uri.slice("a2a://".length) : uri;
}

/** The `a2a://` reference of a node: `<author URI>/knowledge/<node id>`. */
export function nodeUri(node: Pick<KnowledgeNode, "id" | "createdBy">): string {
  return `${node.createdBy}/knowledge/${encodeURIComponent(node.id)}`;
}

/** The `a2a://` reference of a message: `<sender URI>/messages/<message id>`. */
export function messageUri(receipt: MessageReceipt): string {
  return `${receipt.from}/messages/${encodeURIComponent(receipt.messageId)}`;
}

/** A node's version vector as canonical JSON (`{"a2a://alice":3}`), or `unversioned`. */
export function versionOf(node: KnowledgeNode): string {
  const v = (node as { ocpVersion?: unknown }).ocpVersion;
  return typeof v === "object" && v !== null ? canonicalize(v) : "unversioned";
}

function clip(text: string): string {
  return text.length > MAX_FRAME_CONTENT_CHARS
    ? `${text.slice(0, MAX_FRAME_CONTENT_CHARS - 3)}...`
    : text;
}

function dataLines(data: unknown): string[] {
  if (data === undefined || data === null) return [];
  if (typeof data === "string") return [data];
  if (!isJsonObject(data)) return [JSON.stringify(data)];
  return Object.entries(data).map(([key, value]) =>
    typeof value === "string" && !value.includes("\n")
      ? `${key}: ${value}`
      : `${key}:\n${typeof value === "string" ? value : JSON.stringify(value, null, 2)}`,
  );
}

/** The text of a node as a frame's content: description, data, confidence and tags. */
export function nodeContent(node: KnowledgeNode): string {
  const lines: string[] = [];
  if (node.description !== undefined && node.description !== "") lines.push(node.description);
  lines.push(...dataLines(node.data));
  const facts = [`confidence ${node.confidence}`];
  if (node.tags.length > 0) facts.push(`tags: ${node.tags.join(", ")}`);
  lines.push(`(${facts.join("; ")})`);
  return clip(lines.join("\n"));
}

/** The tokens a host counts for a frame: title plus content (`@ocp/host`'s o200k_base counter). */
export function frameTokens(title: string, content: string): number {
  return countTokens(title) + countTokens(content);
}

function score(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
}

/** Provenance of a received message: who sent it, its id and its digest. */
export function messageProvenance(receipt: MessageReceipt, method: string): Provenance {
  return {
    type: MESSAGE_PROVENANCE,
    uri: messageUri(receipt),
    digest: receipt.digest,
    method,
    by: receipt.from,
  };
}

/**
 * A knowledge node as a frame. `citation_label` names the node (its title)
 * and its author agent; `uri` is the node's `a2a://` reference; provenance is
 * the node (author in `by`, version vector in `range`) and, when it arrived
 * in a message, that signed message (`digest`, sender in `by`, the message
 * type in `method`).
 */
export function nodeFrame(
  node: KnowledgeNode,
  relevance: number,
  arrival?: { receipt: MessageReceipt; method: string },
): ContextFrame & { kind: FrameKind } {
  const content = nodeContent(node);
  const provenance: Provenance[] = [
    {
      type: NODE_PROVENANCE,
      uri: nodeUri(node),
      range: `version ${versionOf(node)}`,
      method: `knowledge node (${node.type})`,
      by: node.createdBy,
    },
  ];
  if (arrival !== undefined) provenance.push(messageProvenance(arrival.receipt, arrival.method));
  return {
    id: `node:${node.id}`,
    kind: frameKindOf(node),
    title: node.title,
    content,
    uri: nodeUri(node),
    score: score(relevance),
    token_cost: frameTokens(node.title, content),
    recorded_at: node.timestamp,
    provenance,
    citation_label: `${node.title} (${agentName(node.createdBy)}, node ${node.id})`,
    relations: [],
  };
}

/** What a team answer frame is made of (a collective query's outcome). */
export interface TeamAnswer {
  readonly querier: string;
  readonly queryId: string;
  /** The goal the team was asked about (the frame is titled "Team answer: GOAL"). */
  readonly query: string;
  readonly answer: string;
  readonly confidence: number;
  readonly consensus: readonly string[];
  readonly dissent: readonly string[];
  readonly responses: ReadonlyArray<{ from: string; receipt?: MessageReceipt | undefined }>;
}

/**
 * The synthesis of a collective query as one `fact` frame citing the
 * answering agents, consensus and dissent marked in its content.
 */
export function teamAnswerFrame(answer: TeamAnswer): ContextFrame {
  const agents = [...new Set(answer.responses.map((r) => agentName(r.from)))].sort();
  const lines = [
    `Team answer from ${agents.length} agent${agents.length === 1 ? "" : "s"} (${agents.join(", ")}):`,
    answer.answer,
    "",
    answer.consensus.length === 0
      ? "Consensus: none (no claim was reported by two or more agents)"
      : `Consensus:\n${answer.consensus.map((c) => `- ${c}`).join("\n")}`,
    answer.dissent.length === 0
      ? "Dissent: none reported"
      : `Dissent:\n${answer.dissent.map((d) => `- ${d}`).join("\n")}`,
  ];
  const content = clip(lines.join("\n"));
  const goal = answer.query.length > 100 ? `${answer.query.slice(0, 97)}...` : answer.query;
  const title = `Team answer: ${goal}`;
  const provenance: Provenance[] = answer.responses.flatMap((r) =>
    r.receipt === undefined ? [] : [messageProvenance(r.receipt, "ocp.collective.response")],
  );
  return {
    id: `team-answer:${answer.queryId}`,
    kind: "fact",
    title,
    content,
    uri: `${answer.querier}/collective/${encodeURIComponent(answer.queryId)}`,
    score: score(answer.confidence),
    token_cost: frameTokens(title, content),
    provenance,
    citation_label: `team answer (${agents.join(", ")})`,
    relations: [],
  };
}
