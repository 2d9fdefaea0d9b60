/**
 * `@ocp/a2a-compat/server`: an OCP agent served over A2A JSON-RPC (its agent
 * card and OCP operations as A2A tasks) on the official SDK's express
 * handlers. express is an optional peer of this package: install it beside
 * it to use this entry.
 */
export {
  A2A_RPC_PATH,
  type A2AListenOptions,
  type A2AServeOptions,
  A2AServer,
  type A2AServerOptions,
} from "./server.js";
