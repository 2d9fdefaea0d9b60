import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import type { FrameKind } from "@ocp/types";

/** The kinds this provider serves. */
export const SERVED_KINDS: readonly FrameKind[] = [
  "doc",
  "fact",
  "snippet",
  "symbol",
  "memory",
  "episode",
];

/** Node types of frames shared into the team: `ocp.frame.<kind>` (see `shareFrames`). */
export const SHARED_FRAME_TYPE_PREFIX = "ocp.frame.";

/**
 * The frame kind of a knowledge node, from its `type` (§5.1.1: extensible,
 * dot-separated), first segment first:
 *
 * | node type                                                   | frame kind |
 * | ----------------------------------------------------------- | ---------- |
 * | `ocp.frame.<kind>` (a frame shared into the team)            | `<kind>`   |
 * | `code.symbol`, `symbol`, `api`                              | `symbol`   |
 * | `code.*`, `snippet`, `code`                                 | `snippet`  |
 * | `decision*`, `adr`, `doc*`, `guide*`, `policy`, `convention*` | `doc`    |
 * | `episode`, `incident*`, `event*`, `meeting*`                | `episode`  |
 * | `memory`, `lesson*`, `learning*`, `preference*`             | `memory`   |
 * | anything else (`fact`, `finding`, ...)                      | `fact`     |
 */
export function frameKindOf(node: Pick<KnowledgeNode, "type">): FrameKind {
  const type = node.type.toLowerCase();
  if (type.startsWith(SHARED_FRAME_TYPE_PREFIX)) {
    const kind = type.slice(SHARED_FRAME_TYPE_PREFIX.length) as FrameKind;
    if ((SERVED_KINDS as readonly string[]).includes(kind)) return kind;
  }
  const [head = "", second = ""] = type.split(".");
  if (type === "code.symbol" || head === "symbol" || head === "api") return "symbol";
  if (head === "code" || head === "snippet" || second === "solution") return "snippet";
  if (/^(decision|adr|doc|guide|policy|convention|howto|architecture)/.test(head)) return "doc";
  if (/^(episode|incident|event|meeting|postmortem)/.test(head)) return "episode";
  if (/^(memory|lesson|learning|preference)/.test(head)) return "memory";
  return "fact";
}
