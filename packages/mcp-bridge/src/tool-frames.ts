import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ContextQuery, ContextQueryResult } from "@ocp/types";
import { bridgeError } from "./errors.js";
import { BudgetPacker, makeFrame } from "./frames.js";
import { MAX_FRAME_CHARS } from "./limits.js";

/**
 * The frames of one tool result, in the tool's order, scored 1, 1/2, 1/3…:
 * each text item, and each embedded text resource (with its URI). Images,
 * audio and links carry no text to cite and are skipped. `isError` is a
 * `tool_error` carrying the tool's own text.
 */
export function toolFrames(
  result: Pick<CallToolResult, "content" | "isError">,
  query: ContextQuery,
  source: { readonly tool: string; readonly by: string },
): ContextQueryResult {
  const texts: { text: string; uri?: string }[] = [];
  for (const item of result.content) {
    if (item.type === "text") texts.push({ text: item.text });
    else if (item.type === "resource" && "text" in item.resource) {
      texts.push({ text: item.resource.text as string, uri: item.resource.uri });
    }
  }
  if (result.isError === true) {
    const message = texts
      .map((part) => part.text)
      .join(" ")
      .slice(0, 500);
    throw bridgeError("tool_error", `tool "${source.tool}" failed: ${message || "(no message)"}`, {
      details: {
        tool: source.tool,
      },
    });
  }
  const packer = new BudgetPacker(query.max_tokens, query.max_frames);
  let at = 0;
  for (; at < texts.length && !packer.full; at += 1) {
    const { text, uri } = texts[at]!;
    if (text.trim() === "" || text.length > MAX_FRAME_CHARS) {
      packer.dropped += 1;
      continue;
    }
    const label = `${source.tool} result ${at + 1}`;
    packer.offer(
      makeFrame({
        kind: "doc",
        title: label,
        content: text,
        uri,
        score: 1 / (at + 1),
        citationLabel: label,
        provenance: { type: "mcp_tool", uri, method: `tools/call ${source.tool}`, by: source.by },
      }),
    );
  }
  return packer.result(texts.length - at);
}
