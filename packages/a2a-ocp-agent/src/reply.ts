/**
 * §4.1 `reply_to` ("for async responses"): where an answer to a request goes.
 * A request that carries an agent URI in `reply_to` is answered there
 * (collective responses, awareness responses, knowledge sync pages), with
 * `correlation_id` tying the answer to the request as usual; any other value
 * (not an `a2a://` URI, which no hub routes to) is ignored and the answer goes
 * to the sender. What an answer holds is what both the sender and the reply
 * address may see (§8.5): a `reply_to` never widens what the sender gets.
 */
import { AgentUriSchema } from "@ocp/a2a-ocp-messaging/schemas";

/** The address to answer `message` at: its `reply_to` when that is an agent URI, else its sender. */
export function replyAddress(message: {
  readonly from: string;
  readonly reply_to?: unknown;
}): string {
  const to = message.reply_to;
  return typeof to === "string" && AgentUriSchema.safeParse(to).success ? to : message.from;
}
