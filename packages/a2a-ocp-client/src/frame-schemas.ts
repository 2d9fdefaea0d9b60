/**
 * JSON Schemas (draft 2020-12) of the frames around the messages, generated
 * from the zod schemas the hub and this client parse them with:
 * `schema/a2a-ocp-connection-frames.schema.json` (the transport's
 * `ocp.connection.*` lifecycle) and `schema/a2a-ocp-hub-frames.schema.json`
 * (the hub's `ocp.hub.*` control frames, discovery included). `pnpm generate`
 * writes them (scripts/generate-schemas.mjs); a test fails when a committed
 * file differs. Zod refinements (a profile's encryption key pair) are not
 * carried by JSON Schema.
 */
import { HubFrameSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { ControlMessageSchema } from "@ocp/transport-ws";
import { toJsonSchema } from "@ocp/types";

export const HUB_FRAMES_SCHEMA_ID = "https://ocp.dev/schema/a2a-ocp-hub-frames.schema.json";
export const CONNECTION_FRAMES_SCHEMA_ID =
  "https://ocp.dev/schema/a2a-ocp-connection-frames.schema.json";

/** Every `ocp.hub.*` frame, either direction. */
export function hubFramesJsonSchema(): Record<string, unknown> {
  return toJsonSchema(HubFrameSchema, HUB_FRAMES_SCHEMA_ID);
}

/** Every `ocp.connection.*` frame, either direction. */
export function connectionFramesJsonSchema(): Record<string, unknown> {
  return toJsonSchema(ControlMessageSchema, CONNECTION_FRAMES_SCHEMA_ID);
}
