import type { HttpErrorCode } from "@ocp/transport-http/client";
import type { StdioErrorCode } from "@ocp/transport-stdio";

/**
 * Node's error codes for a socket or pipe the other side dropped, as an
 * in-process provider that talks to a server of its own may throw them.
 */
export type NodeConnectionErrno = "ECONNREFUSED" | "ECONNRESET" | "EPIPE";

/** A code after which a leg is reported `crashed` (see {@link PROVIDER_CRASH_CODES}). */
export type ProviderCrashCode =
  | Extract<StdioErrorCode, "spawn_failed" | "provider_crashed" | "closed">
  | Extract<HttpErrorCode, "connection_failed" | "closed">
  | NodeConnectionErrno;

/**
 * The one table of codes that mean the provider process or connection is
 * gone: a leg failing with one (as its code, or its cause's) is reported
 * `crashed` rather than `provider_error`, and the MCP bridge starts such a
 * provider afresh. Each is raised by a transport (`@ocp/transport-stdio`:
 * `spawn_failed`, `provider_crashed`, `closed`; `@ocp/transport-http`:
 * `connection_failed`, `closed`) or by Node for a dropped socket or pipe.
 */
export const PROVIDER_CRASH_CODES = [
  "spawn_failed",
  "provider_crashed",
  "closed",
  "connection_failed",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
] as const satisfies readonly ProviderCrashCode[];

const CRASH_CODE_SET: ReadonlySet<string> = new Set(PROVIDER_CRASH_CODES);

/** Whether `code` is one of {@link PROVIDER_CRASH_CODES}. */
export function isProviderCrashCode(code: unknown): code is ProviderCrashCode {
  return typeof code === "string" && CRASH_CODE_SET.has(code);
}
