/**
 * Whether `value` is a JSON object (not null, not an array): its members can
 * then be read by name. The one guard the packages narrow parsed JSON with,
 * instead of casting it to `Record<string, unknown>`.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
