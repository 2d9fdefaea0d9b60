/**
 * `@ocp/transport-http`: both sides. Import `@ocp/transport-http/client` or
 * `@ocp/transport-http/server` to load only one (a host never loads fastify).
 */
export * from "./client-entry.js";
export * from "./server-entry.js";
