export type { ConsentGate } from "./consent.js";
export { BRIDGE_ERROR_CODES, type BridgeError, type BridgeErrorCode } from "./errors.js";
export { connectMcpProvider, McpProvider, type McpProviderOptions } from "./from-mcp.js";
export { LIMITS } from "./limits-object.js";
export type { McpTarget } from "./mcp-session.js";
export { createOcpMcpServer, type OcpMcpServerOptions } from "./to-mcp.js";
