/**
 * `as_of` and `kinds` against an answer: the two query filters a provider
 * must honour, read by upstream's `as-of-temporal` and `kinds-filter`
 * checks. Same {@link Violation}-like shape as the frame rules.
 */
import { isCgpTimestamp } from "./formats.js";

/**
 * Compares two timestamps of the F4 profile as instants: negative when `a` is
 * earlier, 0 when equal, positive when later; `undefined` when either is not
 * in the profile. Fractions compare by value (`…00Z` = `…00.000Z`), so the
 * comparison never depends on spelling.
 */
export function compareCgpTimestamps(a: string, b: string): number | undefined {
  if (!isCgpTimestamp(a) || !isCgpTimestamp(b)) return undefined;
  const whole = (t: string) => t.slice(0, 19);
  if (whole(a) !== whole(b)) return whole(a) < whole(b) ? -1 : 1;
  const fraction = (t: string) => (t.length > 20 ? t.slice(20, -1) : "").replace(/0+$/, "");
  const fa = fraction(a);
  const fb = fraction(b);
  const width = Math.max(fa.length, fb.length);
  const pa = fa.padEnd(width, "0");
  const pb = fb.padEnd(width, "0");
  return pa === pb ? 0 : pa < pb ? -1 : 1;
}

export interface CgpFilterViolation {
  readonly rule: "X-ASOF" | "K1";
  readonly message: string;
  readonly frameId: string;
  readonly field: "valid_from" | "kind";
}

interface FrameDates {
  readonly id: string;
  readonly kind: string;
  readonly valid_from?: string | null;
}

/**
 * X-ASOF (upstream's `as-of-temporal` check): with `as_of` set, no returned
 * frame's `valid_from` is after the pin — nothing that was not yet true at
 * the pinned instant. A frame without `valid_from`, or whose timestamps are
 * outside the F4 profile (F4's own violation), is not judged here.
 */
export function cgpAsOfViolations(
  query: { readonly as_of?: string | null },
  frames: readonly FrameDates[],
): CgpFilterViolation[] {
  const pin = query.as_of;
  if (pin === undefined || pin === null) return [];
  return frames.flatMap((frame) => {
    const from = frame.valid_from;
    if (from === undefined || from === null) return [];
    const order = compareCgpTimestamps(from, pin);
    if (order === undefined || order <= 0) return [];
    return [
      {
        rule: "X-ASOF" as const,
        field: "valid_from" as const,
        frameId: frame.id,
        message: `frame "${frame.id}": valid_from ${from} is after the as_of pin ${pin}`,
      },
    ];
  });
}

/** K1 (upstream's `kinds-filter` check): with `kinds` non-empty, only frames of those kinds. */
export function cgpKindViolations(
  query: { readonly kinds?: readonly string[] | null },
  frames: readonly FrameDates[],
): CgpFilterViolation[] {
  const kinds = query.kinds ?? [];
  if (kinds.length === 0) return [];
  const asked = new Set(kinds);
  return frames
    .filter((frame) => !asked.has(frame.kind))
    .map((frame) => ({
      rule: "K1" as const,
      field: "kind" as const,
      frameId: frame.id,
      message: `frame "${frame.id}": kind "${frame.kind}" was not asked for (${kinds.join(", ")})`,
    }));
}
