/**
 * What of a knowledge node the dashboard may show. A node's content (title,
 * domain) is shown only when its visibility is `public` or `team`, or when
 * the operator explicitly enabled every visibility (`showAllVisibilities`);
 * otherwise only its id, author, type and visibility are. An absent
 * visibility reads as the hub's default (`workspace` unless told otherwise),
 * and a value that is not one of the four levels is hidden (fail closed).
 */
import { isRecord, text } from "./read.js";
import type { NodeView } from "./views.js";

export interface RedactionPolicy {
  /** Show content of `workspace` and `private` nodes too. Off by default. */
  showAllVisibilities: boolean;
  /** What an absent `visibility` means (the hub's `defaultVisibility`). */
  defaultVisibility: string;
}

const SHOWN = new Set(["public", "team"]);
const LEVELS = new Set(["public", "team", "workspace", "private"]);

/** The view of one node as the page may see it; `undefined` when it is not a node at all. */
export function nodeView(value: unknown, policy: RedactionPolicy): NodeView | undefined {
  if (!isRecord(value)) return undefined;
  const node = value;
  const id = text(node["id"] ?? node["nodeId"]);
  if (id === undefined) return undefined;
  const raw = node["visibility"];
  const visibility =
    raw === undefined ? policy.defaultVisibility : typeof raw === "string" ? raw : "invalid";
  const shown =
    LEVELS.has(visibility) && (SHOWN.has(visibility) || policy.showAllVisibilities === true);
  const metadata = node["metadata"];
  const domain = isRecord(metadata) ? text(metadata["domain"]) : undefined;
  return {
    id,
    author: text(node["createdBy"]) ?? "",
    visibility: LEVELS.has(visibility) ? visibility : "invalid",
    type: text(node["type"]) ?? "",
    title: shown ? text(node["title"]) : undefined,
    domain: shown ? domain : undefined,
    hidden: !shown,
  };
}

/** Whether a node's content names a contradiction (`metadata.contradicts`). */
export function contradicts(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const metadata = value["metadata"];
  return isRecord(metadata) ? text(metadata["contradicts"]) : undefined;
}
