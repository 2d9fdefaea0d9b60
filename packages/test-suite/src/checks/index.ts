import type { Check } from "../context.js";
import { authorship, membership } from "./authority.js";
import { slowConsumer } from "./backpressure.js";
import {
  federationFlood,
  federationForged,
  federationIdentity,
  federationReplay,
  federationWithheld,
} from "./federation.js";
import { lifecycle, registrationProof, senderBinding, subprotocolRequired } from "./lifecycle.js";
import { capabilityNegotiation, discovery, rateLimits, sizeLimits } from "./limits.js";
import { durableDelivery, eventNotifications, eventRouting, visibility } from "./routing.js";
import { expiry, iJson, replay, signatures, version } from "./security.js";

/** Every hub check, in report order. */
export const HUB_CHECKS: readonly Check[] = [
  lifecycle,
  subprotocolRequired,
  registrationProof,
  senderBinding,
  signatures,
  replay,
  expiry,
  iJson,
  version,
  visibility,
  authorship,
  membership,
  durableDelivery,
  eventRouting,
  eventNotifications,
  capabilityNegotiation,
  discovery,
  rateLimits,
  sizeLimits,
  slowConsumer,
  federationForged,
  federationReplay,
  federationIdentity,
  federationWithheld,
  federationFlood,
];

/** The names of every hub check. */
export const HUB_CHECK_NAMES: readonly string[] = HUB_CHECKS.map((check) => check.spec.name);
