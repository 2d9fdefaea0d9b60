import {
  type ErrorFactory,
  errorFactory,
  isOcpError,
  type OcpError,
  type WireErrorCode,
  wireError,
} from "@ocp/types";

/** Stable codes of every {@link OcpError} this package raises (see the README table). */
export const BRIDGE_ERROR_CODES = {
  usage: "bad command line (exit status 2)",
  connect_failed: "the MCP server or provider could not be started or reached",
  mcp_unsupported:
    "the MCP server declares no resources capability (or no tools capability for --tool)",
  mcp_crashed: "the MCP server exited or closed the connection",
  mcp_timeout: "the MCP server did not answer within the timeout",
  mcp_malformed: "the MCP server answered with a result that fails the MCP schema",
  mcp_too_large:
    "the MCP server wrote a message over MAX_MCP_LINE_BYTES (the connection is closed)",
  mcp_error: "the MCP server answered a JSON-RPC error",
  tool_error: "the MCP tool answered with isError, or has no string argument for the goal",
  provider_failed: "the Open Context provider failed, crashed or timed out",
  provider_dishonest: "the provider's answer broke F1-F3, B1, K1, M1 or T1 (e.g. lied about costs)",
  consent_required: "the provider is egress and no consent was given",
  consent_declined: "the user declined (or cancelled) the consent request",
} as const;
export type BridgeErrorCode = keyof typeof BRIDGE_ERROR_CODES;
export type BridgeError = OcpError<BridgeErrorCode>;

/** Raises a bridge error: only a {@link BridgeErrorCode} compiles. */
export const bridgeError: ErrorFactory<BridgeErrorCode> = errorFactory<BridgeErrorCode>();

const WIRE: Record<BridgeErrorCode, WireErrorCode> = {
  usage: "bad_request",
  connect_failed: "unavailable",
  mcp_unsupported: "unavailable",
  mcp_crashed: "unavailable",
  mcp_timeout: "unavailable",
  mcp_malformed: "internal",
  mcp_too_large: "internal",
  mcp_error: "internal",
  tool_error: "internal",
  provider_failed: "unavailable",
  provider_dishonest: "internal",
  consent_required: "unavailable",
  consent_declined: "unavailable",
};

/**
 * The error an Open Context host sees for a bridge failure: the wire code
 * that fits (`unavailable`, `internal`, `bad_request`), the bridge code
 * leading the message so it stays readable on the far side.
 */
export function toWireError(error: unknown): OcpError<WireErrorCode> {
  if (isOcpError(error) && error.code in WIRE) {
    const code = error.code as BridgeErrorCode;
    return wireError(WIRE[code], `${code}: ${error.message}`, {
      cause: error,
      details: { ...error.details },
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return wireError("internal", message, { cause: error });
}
