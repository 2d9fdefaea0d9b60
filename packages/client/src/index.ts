/**
 * `@ocp/client`: the a2a+ocp client as the specification's TypeScript
 * example (§10.5) writes it — `new OCPAgent({ id, privateKey, endpoint })`,
 * `subscribe`, `on("knowledge")`, `streamKnowledge`. A thin composition of
 * the agent runtime (`@ocp/a2a-ocp-agent`) and the hub client
 * (`@ocp/a2a-ocp-client`); reach for those for everything else.
 */
export type { KnowledgeEdge, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
export {
  CONNECT_TIMEOUT_MS,
  OCPAgent,
  type OCPAgentConfig,
  type SubscribeOptions,
} from "./agent.js";
export { CLIENT_ERROR_CODES, type ClientErrorCode } from "./errors.js";
export { generatePrivateKey } from "./key.js";
