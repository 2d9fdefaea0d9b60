/**
 * JSON Schemas (draft 2020-12) of the frames around the messages, generated
 * from the zod schemas the hub and this client parse them with:
 * `schema/a2a-ocp-connection-frames.schema.json` (the transport's
 * `ocp.connection.*` lifecycle) and `schema/a2a-ocp-hub-frames.schema.json`
 * (the hub's `ocp.hub.*` control frames, discovery included), and
 * `docs/a2a-ocp-wire.md`'s frame tables, which test/wire-doc.test.ts pins to
 * them. `pnpm generate`
 * writes them (scripts/generate-schemas.mjs); a test fails when a committed
 * file differs. Zod refinements (a profile's encryption key pair) are not
 * carried by JSON Schema.
 */
import {
  HubFrameSchema,
  HubIdentitySchema,
  OcpFeatureSchema,
} from "@ocp/a2a-ocp-messaging/schemas";
import {
  ConnectionAckSchema,
  ConnectionDisconnectSchema,
  ConnectionRefusedSchema,
  ConnectionRegisteredSchema,
} from "@ocp/transport-ws/internal";
import { toJsonSchema } from "@ocp/types/internal";
import { z } from "zod";

/**
 * The transport's `ocp.connection.*` frames as an a2a+ocp hub or listening
 * agent sends them: the transport's shapes with the fields those add
 * (`hub`; on `registered` of a listening agent, `supportedFeatures`, §7.2).
 */
export const ConnectionFrameSchema = z.discriminatedUnion("type", [
  ConnectionAckSchema.extend({
    payload: ConnectionAckSchema.shape.payload.extend({ hub: HubIdentitySchema.optional() }),
  }),
  ConnectionRegisteredSchema.extend({
    payload: ConnectionRegisteredSchema.shape.payload.extend({
      hub: HubIdentitySchema.optional(),
      supportedFeatures: z.array(OcpFeatureSchema).optional(),
      /** The hub confirms trace contexts in hub frames to an agent that announced `ocpTrace`. */
      ocpTrace: z.boolean().optional(),
    }),
  }),
  ConnectionRefusedSchema,
  ConnectionDisconnectSchema,
]);

export const HUB_FRAMES_SCHEMA_ID = "https://ocp.dev/schema/a2a-ocp-hub-frames.schema.json";
export const CONNECTION_FRAMES_SCHEMA_ID =
  "https://ocp.dev/schema/a2a-ocp-connection-frames.schema.json";

/** Every `ocp.hub.*` frame, either direction. */
export function hubFramesJsonSchema(): Record<string, unknown> {
  return toJsonSchema(HubFrameSchema, HUB_FRAMES_SCHEMA_ID);
}

/** Every `ocp.connection.*` frame, either direction. */
export function connectionFramesJsonSchema(): Record<string, unknown> {
  return toJsonSchema(ConnectionFrameSchema, CONNECTION_FRAMES_SCHEMA_ID);
}
