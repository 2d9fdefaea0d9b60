/**
 * The client's replay window for deliveries. The hub's durable sequence
 * number is authoritative: the hub commits a message once per id (it refuses
 * a second copy `replay_detected`), so a delivery with a sequence number
 * this client has not handled is a message it has not seen, even when the
 * window's Bloom filter of evicted ids cannot prove that
 * (`replay_window_saturated`: a false positive, about 1% of ids once a
 * filter is loaded to capacity, every id past it). Such a delivery is let
 * through and marked {@link DeliveryReplayWindow.unproven}, so it reaches the
 * application flagged (`possibleReplay`) instead of being confirmed and lost.
 * An id the window holds exactly is a replay and is still refused; so is a
 * transient message (no sequence number vouches for it).
 */
import { ReplayWindow } from "@ocp/a2a-ocp-messaging";

type Verdict = ReturnType<ReplayWindow["check"]>;

export class DeliveryReplayWindow extends ReplayWindow {
  /** Set for one delivery: it carries a durable sequence number the client has not handled. */
  vouched = false;
  /** Set when the filter could not prove the vouched delivery's id unseen. */
  unproven = false;

  override check(id: string, deadlineMs: number, nowMs: number): Verdict {
    const verdict = super.check(id, deadlineMs, nowMs);
    if (verdict.ok || verdict.error.code !== "replay_window_saturated" || !this.vouched)
      return verdict;
    this.unproven = true;
    return { ok: true, value: undefined };
  }
}
