export type { ConsentGate } from "./consent.js";
export { BRIDGE_ERROR_CODES, type BridgeError, type BridgeErrorCode } from "./errors.js";
export { connectMcpProvider, McpProvider, type McpProviderOptions } from "./from-mcp.js";
/**
 * Every limit of `@ocp/mcp-bridge`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export type { McpTarget } from "./mcp-session.js";
export { createOcpMcpServer, type OcpMcpServerOptions } from "./to-mcp.js";
