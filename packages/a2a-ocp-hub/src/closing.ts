/**
 * What a hub that began closing (`OCPHub.close()`) answers to what still
 * arrives: every connection is being closed with 1001, but frames an agent
 * sent before it read the close are still delivered to the hub. They are
 * refused `hub_closing` and neither committed nor routed: a message accepted
 * then could never be acknowledged (the connection no longer sends), so its
 * sender would resend it to the next hub and meet `replay_detected` for a
 * message it never saw accepted. The refusal reaches the sender only while
 * its connection is still open; either way the message is its to resend.
 * Like `store_failed`, it is the hub's own state, so it spends none of the
 * agent's refusal budget.
 */
import { messageIdOf } from "./control.js";

/** The code and message of the refusal. */
export const CLOSING_REFUSAL = {
  code: "hub_closing",
  message: "the hub is shutting down: resend on the next connection",
} as const;

/**
 * Refuses `frame` with {@link CLOSING_REFUSAL} when the hub is closing, naming
 * the message's `id` when its text has one (so the sender and observers can
 * tell which message); true when it refused.
 */
export function refusedWhileClosing(
  closing: Promise<void> | undefined,
  frame: string,
  reject: (code: string, message: string, details?: undefined, id?: string) => void,
): boolean {
  if (closing === undefined) return false;
  reject(CLOSING_REFUSAL.code, CLOSING_REFUSAL.message, undefined, messageIdOf(frame));
  return true;
}
