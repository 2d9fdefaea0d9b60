import type { ContextFrame } from "@ocp/types";

/**
 * R3: how untrusted frame content is delimited. Each frame becomes
 *
 *     <<<frame N cite="…" provider="…" kind="…" score="0.900" title="…" uri="…"
 *        recorded_at="…" digest="sha256:0123456789ab">>>    (one line)
 *     content
 *     <<<end frame N>>>
 *
 * Deterministic (no nonce, no clock). Sound because of one invariant: after
 * {@link neutralise}, text contains no `<<`, no `>>` and no `<|`, so it can
 * neither close its fence, nor open or forge another, nor spell a
 * special-token delimiter. Header values are JSON strings (quotes, newlines
 * and control characters escaped) passed through the same neutralisation.
 * `uri`, `recorded_at` and `digest` appear when the frame has them: the
 * provenance a reader needs to date a frame and check it against its source
 * (the digest is shortened, see {@link shortDigest}).
 */
export const FENCE_OPEN = "<<<";
export const FENCE_CLOSE = ">>>";

/** Fullwidth and small-form angle brackets, read as ASCII before neutralising. */
const LOOKALIKE = /[\uFF1C\uFE64\uFF1E\uFE65]/g;
const ANGLE_RUN = /<(?=[<|])/g;
const CLOSE_RUN = />(?=>)/g;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/**
 * Breaks every `<<`, `>>` and `<|` by inserting a backslash after the first
 * character (`<<<end frame 1>>>` becomes `<\<\<end frame 1>\>\>`). Fullwidth
 * and small-form angle brackets (`＜`, `﹤`, `＞`, `﹥`) are first turned into
 * ASCII, so a lookalike marker is broken too. Every other character is kept,
 * so the content stays readable.
 */
export function neutralise(text: string): string {
  return text
    .replace(LOOKALIKE, (c) => (c === "\uFF1C" || c === "\uFE64" ? "<" : ">"))
    .replace(ANGLE_RUN, "<\\")
    .replace(CLOSE_RUN, ">\\");
}

/** A header attribute value: a JSON string on one line, neutralised. */
export function attribute(value: string): string {
  return neutralise(JSON.stringify(value)).replace(LINE_SEPARATORS, (c) =>
    c === "\u2028" ? "\\u2028" : "\\u2029",
  );
}

/** The label a frame is cited by: its citation label, else its title (F3). */
export function citationOf(frame: ContextFrame): string {
  const label = frame.citation_label;
  return label !== undefined && label !== null && label.trim() !== "" ? label : frame.title;
}

/** Hex digits of a digest kept in a fence header: enough to tell versions apart. */
export const SHORT_DIGEST_HEX = 12;
/** Longest digest of another shape shown in a fence header, in characters. */
const MAX_OTHER_DIGEST = 40;

/**
 * A digest as a fence header shows it: `algo:` and the first
 * {@link SHORT_DIGEST_HEX} hex digits (like a short git hash, a tenth of the
 * tokens of the whole); a digest of any other shape is cut to 40 characters.
 * The whole digest stays on the frame's provenance.
 */
export function shortDigest(digest: string): string {
  const hex = /^([A-Za-z0-9-]{1,16}):([0-9a-fA-F]+)$/.exec(digest);
  if (hex) return `${hex[1]}:${hex[2]!.slice(0, SHORT_DIGEST_HEX).toLowerCase()}`;
  return digest.length > MAX_OTHER_DIGEST ? `${digest.slice(0, MAX_OTHER_DIGEST)}…` : digest;
}

/** The digest of the first provenance entry that has one (F2 provenance). */
export function digestOf(frame: ContextFrame): string | undefined {
  for (const entry of frame.provenance) {
    if (typeof entry.digest === "string" && entry.digest.trim() !== "") return entry.digest;
  }
  return undefined;
}

/** The opening marker line of frame `n`. */
export function openMarker(n: number, providerId: string, frame: ContextFrame): string {
  const score = Number.isFinite(frame.score) ? frame.score.toFixed(3) : "NaN";
  const uri = frame.uri ? ` uri=${attribute(frame.uri)}` : "";
  const recorded = frame.recorded_at ? ` recorded_at=${attribute(frame.recorded_at)}` : "";
  const digest = digestOf(frame);
  const digested = digest === undefined ? "" : ` digest=${attribute(shortDigest(digest))}`;
  return (
    `${FENCE_OPEN}frame ${n} cite=${attribute(citationOf(frame))} provider=${attribute(providerId)}` +
    ` kind=${attribute(frame.kind)} score="${score}" title=${attribute(frame.title)}${uri}` +
    `${recorded}${digested}${FENCE_CLOSE}`
  );
}

/** The closing marker line of frame `n`. */
export function closeMarker(n: number): string {
  return `${FENCE_OPEN}end frame ${n}${FENCE_CLOSE}`;
}

/** One fenced frame, ending in a newline. */
export function fenceFrame(n: number, providerId: string, frame: ContextFrame): string {
  return `${openMarker(n, providerId, frame)}\n${neutralise(frame.content)}\n${closeMarker(n)}\n`;
}
