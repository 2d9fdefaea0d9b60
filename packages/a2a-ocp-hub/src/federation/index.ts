/** Hub-to-hub federation (docs/federation.md). */

export { FEDERATION_ERROR_CODES, type FederationErrorCode } from "./codes.js";
export {
  type FederationConfig,
  type FederationPeer,
  loadFederationConfig,
  parseFederationConfig,
} from "./config.js";
export { Federation, type FederationLinkState, type FederationOptions } from "./federation.js";
