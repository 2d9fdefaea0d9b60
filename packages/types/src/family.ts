/**
 * The two protocol families this package speaks, side by side: the Open
 * Context Protocol (`ocp/1.0-draft`) and the Context Graph Protocol
 * (`contextgraph/1.0-draft`). A session's family is decided once, from the
 * version the host offers at the handshake, and every later decision reads
 * it; the families are never mixed ({@link versionsCompatible} is false
 * across them).
 */
import { PROTOCOL_VERSION, protocolFamily, VERSION_PATTERN } from "./version.js";

/** A major protocol family: the version string up to its first ".". */
export type ProtocolFamily = "ocp/1" | "contextgraph/1";

/** The Open Context Protocol version this implementation speaks (= `PROTOCOL_VERSION`). */
export const OCP_PROTOCOL_VERSION: typeof PROTOCOL_VERSION = PROTOCOL_VERSION;

/** The Context Graph Protocol version this implementation speaks. */
export const CGP_PROTOCOL_VERSION = "contextgraph/1.0-draft";

/** The grammar of a Context Graph Protocol version string (SPEC §3.1), anchored. */
export const CGP_VERSION_PATTERN: RegExp = /^contextgraph[/][0-9]+[.][0-9]+(-draft)?$/;

/**
 * The family `version` belongs to, when it follows either grammar and names
 * major 1 of that family: `"ocp/1"` for `ocp/1.x[-draft]`, `"contextgraph/1"`
 * for `contextgraph/1.x[-draft]`. `undefined` for anything else (garbage, a
 * bare `1.0`, or a major this implementation does not speak such as
 * `contextgraph/2.0`).
 */
export function familyOfVersion(version: string): ProtocolFamily | undefined {
  if (typeof version !== "string") return undefined;
  const grammatical = VERSION_PATTERN.test(version) || CGP_VERSION_PATTERN.test(version);
  if (!grammatical) return undefined;
  const family = protocolFamily(version);
  return family === "ocp/1" || family === "contextgraph/1" ? family : undefined;
}

/** The version string this implementation offers for `family`. */
export function versionOfFamily(family: ProtocolFamily): string {
  return family === "ocp/1" ? OCP_PROTOCOL_VERSION : CGP_PROTOCOL_VERSION;
}
