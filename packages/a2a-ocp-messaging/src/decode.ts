import { describeIssues } from "@ocp/types";
import { fail, ok, type Result } from "./errors.js";
import { isPlainFastMessage } from "./fast-decode.js";
import { schemaFor, type WireMessage } from "./messages.js";
import { PROTOCOL_VERSION, semverMajor, versionsCompatible } from "./version.js";

/**
 * Decodes an already-parsed JSON value as an a2a+ocp message: the schema of
 * its form (plain, encrypted, compressed) and type, then the version check.
 * Never throws: any input gives a value or a typed error. A message of the
 * common types already in the schema's output form is returned as it is (not
 * copied; see `fast-decode.ts`), so treat the result as read-only.
 */
export function decodeMessage(
  value: unknown,
  ownVersion: string = PROTOCOL_VERSION,
): Result<WireMessage, "invalid_message" | "incompatible_version"> {
  if (isPlainFastMessage(value)) return checkVersion(value as WireMessage, ownVersion);
  const parsed = schemaFor(value).safeParse(value);
  if (!parsed.success) {
    return fail("invalid_message", `not a valid a2a+ocp message: ${describeIssues(parsed.error)}`, {
      details: { issues: parsed.error.issues },
    });
  }
  return checkVersion(parsed.data as WireMessage, ownVersion);
}

function checkVersion(
  message: WireMessage,
  ownVersion: string,
): Result<WireMessage, "incompatible_version"> {
  if (!versionsCompatible(message.version, ownVersion)) {
    return fail(
      "incompatible_version",
      `message version ${message.version} is not compatible with ${ownVersion} (major ${semverMajor(ownVersion)})`,
      { details: { version: message.version, ownVersion } },
    );
  }
  return ok(message);
}
