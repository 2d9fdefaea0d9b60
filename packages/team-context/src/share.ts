import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import { canonicalHash } from "@ocp/a2a-ocp-agent/internal";
import type { KnowledgeNode, Visibility } from "@ocp/a2a-ocp-messaging";
import type { ContextFrame } from "@ocp/types";
import { teamContextError } from "./errors.js";
import { SHARED_FRAME_TYPE_PREFIX } from "./kinds.js";
import { MAX_SHARED_FRAMES } from "./limits.js";

/** Options of {@link shareFrames}. */
export interface ShareOptions {
  /** The id (or name) of the Open Context provider the frames came from. */
  readonly provider: string;
  /** The goal they were retrieved for, kept in the node's metadata. */
  readonly goal?: string;
  /** §8.5 visibility of the new nodes (default `workspace`: the team's workspace). */
  readonly visibility?: Visibility;
  /** Extra tags on every node. */
  readonly tags?: readonly string[];
  readonly now?: () => Date;
}

/** The knowledge node id of a frame from a provider: stable, so sharing twice edits, never duplicates. */
export function sharedNodeId(provider: string, frameId: string): string {
  return `ocp-frame-${canonicalHash({ provider, frame: frameId }).slice(0, 32)}`;
}

/**
 * A received Open Context frame as a knowledge node (type
 * `ocp.frame.<kind>`): title and content kept, provenance preserved in
 * `metadata.openContext` (which provider, the frame's id, citation label,
 * uri, score, its own provenance) and a `sha256:` digest of the content as
 * shared. Frame content is untrusted data and stays data: it goes in
 * `data.content`, never in a field a runtime acts on.
 */
export function frameToNode(
  frame: ContextFrame,
  author: string,
  options: ShareOptions,
): KnowledgeNode {
  const digest = `sha256:${canonicalHash(frame.content)}`;
  return {
    id: sharedNodeId(options.provider, frame.id),
    type: `${SHARED_FRAME_TYPE_PREFIX}${frame.kind}`,
    title: frame.title,
    description: `${frame.citation_label ?? frame.title} (via Open Context provider ${options.provider})`,
    data: { content: frame.content },
    confidence: Math.min(1, Math.max(0, frame.score)),
    timestamp: (options.now?.() ?? new Date()).toISOString(),
    createdBy: author,
    tags: ["open-context", frame.kind, ...(options.tags ?? [])],
    visibility: options.visibility ?? "workspace",
    metadata: {
      openContext: {
        provider: options.provider,
        frameId: frame.id,
        citation: frame.citation_label ?? frame.title,
        ...(frame.uri == null ? {} : { uri: frame.uri }),
        score: frame.score,
        tokenCost: frame.token_cost,
        digest,
        provenance: frame.provenance,
        ...(options.goal === undefined ? {} : { goal: options.goal }),
      },
    },
  };
}

/**
 * Shares frames a host received into the team: each becomes a knowledge
 * node authored by `agent` and is streamed to the agent's subscribers (the
 * hub applies §8.5 to every recipient). Resolves with the nodes once sent.
 */
export async function shareFrames(
  agent: OCPAgent,
  frames: readonly ContextFrame[],
  options: ShareOptions,
): Promise<KnowledgeNode[]> {
  if (frames.length > MAX_SHARED_FRAMES)
    throw teamContextError(
      "too_many_frames",
      `${frames.length} frames: at most ${MAX_SHARED_FRAMES} per call`,
    );
  const nodes = frames.map((frame) => frameToNode(frame, agent.id, options));
  if (nodes.length > 0) await agent.streamKnowledge(nodes);
  return nodes;
}
