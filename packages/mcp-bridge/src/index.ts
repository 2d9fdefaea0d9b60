export {
  BRIDGE_ERROR_CODES,
  type BridgeError,
  type BridgeErrorCode,
  bridgeError,
  toWireError,
} from "./errors.js";
export { BudgetPacker, makeFrame } from "./frames.js";
export { connectMcpProvider, McpProvider, type McpProviderOptions } from "./from-mcp.js";
export * from "./limits.js";
export { describeTarget, McpSession, type McpTarget, targetIsRemote } from "./mcp-session.js";
export { type McpStdioOptions, McpStdioTransport } from "./mcp-stdio.js";
export { ResourceRanker } from "./ranker.js";
