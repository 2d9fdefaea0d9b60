import { type ErrorFactory, errorFactory } from "@ocp/types";

/** Codes of the errors `@ocp/client` raises itself (listed in the README). */
export const CLIENT_ERROR_CODES = {
  invalid_option: "an option of new OCPAgent(...) is missing or malformed (the message names it)",
  invalid_private_key: "privateKey is not a 32-byte Ed25519 secret key (base64, hex or bytes)",
  not_connected: "the agent could not reach its endpoint, or was closed",
} as const;

/** A stable code of an `@ocp/client` error. */
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES;

/** Raises an `@ocp/client` error: only a {@link ClientErrorCode} compiles. */
export const clientError: ErrorFactory<ClientErrorCode> = errorFactory<ClientErrorCode>();
