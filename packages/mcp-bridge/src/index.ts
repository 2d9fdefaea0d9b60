export { type ConsentGate, ensureConsent } from "./consent.js";
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
export {
  ProviderHandle,
  type ProviderHandleOptions,
  type ProviderTarget,
} from "./provider-handle.js";
export { ResourceRanker } from "./ranker.js";
export { createOcpMcpServer, frameResourceUri, type OcpMcpServerOptions } from "./to-mcp.js";
