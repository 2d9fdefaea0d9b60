/**
 * a2a+ocp protocol identity and versioning (§4.1): semantic versions; two
 * versions interoperate iff they share the major number.
 */

/** The `protocol` field of every message. */
export const PROTOCOL = "a2a+ocp";

/** The version this implementation speaks. */
export const PROTOCOL_VERSION = "1.0.0";

/** Semantic Versioning 2.0.0, anchored. */
export const SEMVER_PATTERN: RegExp =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** The major number of a semantic version, or `undefined` when it is not one. */
export function semverMajor(version: string): number | undefined {
  const match = SEMVER_PATTERN.exec(version);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Whether two versions interoperate: both are semantic versions with the same
 * major (§4.1: a major bump is a breaking change; minor and patch are not).
 */
export function versionsCompatible(a: string, b: string): boolean {
  const major = semverMajor(a);
  return major !== undefined && major === semverMajor(b);
}
