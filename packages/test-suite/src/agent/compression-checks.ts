/**
 * §12.2 on the receiving side: an agent reads a knowledge stream whose
 * payload comes gzip-compressed (`compression`, `compressedPayload`), and
 * refuses a "zip bomb" — a few tens of kilobytes that would inflate to
 * {@link ZIP_BOMB_INFLATED_BYTES} of a valid stream — instead of inflating
 * it. Observed through collective queries: the node of the compressed
 * stream is among the findings, the bomb's is not and the agent still
 * answers. A listening agent's answer to the bomb, when it sends one, must
 * be an `ocp.hub.reject` naming `decompressed_too_large`.
 */
import { gzipSync } from "node:zlib";
import { excerpt, failed, passed, skipped } from "../context.js";
import { ZIP_BOMB_INFLATED_BYTES } from "../limits.js";
import type { AgentCheck, AgentCheckContext, Node, Sent } from "./context.js";
import type { Tester } from "./session.js";

/** A signed `ocp.knowledge.stream` of `nodes` whose payload JSON (`json`) is sent gzip-compressed. */
function compressedStream(
  context: AgentCheckContext,
  tester: Tester,
  nodes: Node[],
  json: (payload: Record<string, unknown>) => string = JSON.stringify,
): Sent {
  const payload = {
    streamId: `ocp-test-zip-${nodes[0]?.id ?? "empty"}`,
    nodes,
    isIncremental: true,
    sequenceNumber: 1,
  };
  const sent = context.signed(
    tester.identity,
    "ocp.knowledge.stream",
    context.agentId,
    payload,
    (message) => {
      delete message["payload"];
      message["compression"] = "gzip";
      message["compressedPayload"] = gzipSync(Buffer.from(json(payload), "utf8")).toString(
        "base64",
      );
    },
  );
  tester.send(sent.text);
  return sent;
}

/** The hub-style answer (`ocp.hub.ack` / `ocp.hub.reject`) a listening agent sent for `id`, if any. */
function answerTo(tester: Tester, id: string): { type: string; code?: unknown } | undefined {
  const frame = tester.inbox.messages.find(
    (m) =>
      (m.value["type"] === "ocp.hub.reject" || m.value["type"] === "ocp.hub.ack") &&
      (m.value["payload"] as { id?: unknown } | undefined)?.id === id,
  );
  if (frame === undefined) return undefined;
  const payload = frame.value["payload"] as { code?: unknown };
  return { type: String(frame.value["type"]), code: payload.code };
}

export const agentCompression: AgentCheck = {
  spec: {
    name: "agent-compression",
    sections: ["§12.2"],
    advisory: true,
    summary:
      "a gzip-compressed knowledge stream is read; a zip bomb is refused (decompressed_too_large), not inflated",
  },
  async run(context) {
    const tester = await context.tester("zipper");
    const unserved = await context.seed(tester, []);
    if (unserved !== undefined) return skipped(unserved);

    const word = context.word();
    const node = context.node(tester, word);
    compressedStream(context, tester, [node]);
    const answer = await context.query(tester, word);
    if (answer === undefined)
      return failed(
        `no answer to a query within ${context.queryTimeoutMs} ms after a compressed stream`,
      );
    if (!context.findingIds(answer).includes(node.id))
      return failed(
        `a node sent in a gzip-compressed ocp.knowledge.stream is not among the findings for its word: ${excerpt(answer.message.text)}`,
      );

    // The bomb: a valid stream carrying one node, padded with JSON whitespace to the bomb's size.
    const bombWord = context.word();
    const bombNode = context.node(tester, bombWord);
    const padding = " ".repeat(ZIP_BOMB_INFLATED_BYTES);
    const bomb = compressedStream(context, tester, [bombNode], (p) =>
      JSON.stringify(p).replace(/}$/, `${padding}}`),
    );
    const after = await context.query(tester, bombWord);
    if (after === undefined)
      return failed(
        `after a zip bomb (${bomb.text.length} bytes inflating to ${ZIP_BOMB_INFLATED_BYTES}) the agent answered no query within ${context.queryTimeoutMs} ms`,
      );
    if (context.findingIds(after).includes(bombNode.id))
      return failed(
        `the agent inflated a zip bomb (${bomb.text.length} bytes to ${ZIP_BOMB_INFLATED_BYTES}) and stored its node`,
      );
    const told = answerTo(tester, bomb.id);
    if (told?.type === "ocp.hub.ack")
      return failed("the agent acknowledged a zip bomb (ocp.hub.ack) instead of refusing it");
    if (told !== undefined && told.code !== "decompressed_too_large")
      return failed(
        `the agent refused the zip bomb with ${JSON.stringify(told.code)}, not decompressed_too_large`,
      );
    return passed(
      `read a gzip-compressed stream; refused a zip bomb of ${bomb.text.length} bytes (inflating to ${ZIP_BOMB_INFLATED_BYTES})${told === undefined ? " (no reject frame on this connection)" : " with decompressed_too_large"} and kept answering`,
    );
  },
};
