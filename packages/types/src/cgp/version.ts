import { CGP_VERSION_PATTERN } from "../family.js";
import { protocolFamily } from "../version.js";

/** Whether `version` follows the `contextgraph/MAJOR.MINOR[-draft]` grammar (SPEC §3.1). */
export function isCgpVersionString(version: unknown): version is string {
  return typeof version === "string" && CGP_VERSION_PATTERN.test(version);
}

/**
 * H1/H3 within the Context Graph Protocol: two versions interoperate iff both
 * follow its grammar and share a major family (`contextgraph/1.0-draft` and
 * `contextgraph/1.3` do; `contextgraph/2.0` does not; `ocp/1.0-draft` never).
 */
export function cgpVersionsCompatible(a: string, b: string): boolean {
  return isCgpVersionString(a) && isCgpVersionString(b) && protocolFamily(a) === protocolFamily(b);
}
