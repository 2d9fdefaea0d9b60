/**
 * Protocol versioning (spec § Version strings, H1, H3).
 *
 * version-string = "ocp/" major "." minor [ "-draft" ]
 *
 * Two versions interoperate iff they share a major family: the substring up
 * to (not including) the first ".". The "-draft" suffix does not matter.
 */

/** The protocol version this implementation speaks. */
export const PROTOCOL_VERSION = "ocp/1.0-draft";

/** The grammar of a version string, anchored. */
export const VERSION_PATTERN: RegExp = /^ocp[/][0-9]+[.][0-9]+(-draft)?$/;

/** Whether `version` follows the version-string grammar. */
export function isVersionString(version: string): boolean {
  return VERSION_PATTERN.test(version);
}

/**
 * The major family of a version string: everything before the first ".".
 * `protocolFamily("ocp/1.0-draft") === "ocp/1"`. A string without a dot is
 * its own family, so garbage never matches a real family by accident.
 */
export function protocolFamily(version: string): string {
  const dot = version.indexOf(".");
  return dot === -1 ? version : version.slice(0, dot);
}

/**
 * H3: whether two version strings interoperate (same major family). Compares
 * families, never whole strings, so `ocp/1.0-draft` and `ocp/1.7` interoperate
 * while `ocp/2.0` does not. A string outside the grammar (`ocp/1`, `1.0`)
 * interoperates with nothing.
 */
export function versionsCompatible(a: string, b: string): boolean {
  return isVersionString(a) && isVersionString(b) && protocolFamily(a) === protocolFamily(b);
}
