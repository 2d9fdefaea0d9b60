/**
 * Reading the members of a payload the hub accepted: untrusted JSON,
 * narrowed by checks, never cast. Strings shown on the page are cut to
 * {@link TEXT_CHARS} characters.
 */

/** Longest string of a payload the dashboard keeps (characters). */
const TEXT_CHARS = 200;

/** Whether `value` is a JSON object (or any non-null object) whose members can be read. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** `value` when it is an object, else an empty one: its members read as `undefined`. */
export const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/** A string member cut to `max` characters; `undefined` for anything else. */
export const text = (value: unknown, max = TEXT_CHARS): string | undefined =>
  typeof value === "string" ? value.slice(0, max) : undefined;
