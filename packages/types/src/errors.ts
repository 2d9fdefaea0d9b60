/**
 * Two error families, as in the models we follow:
 *
 * - {@link WireErrorCode}: the `code` a provider may put on an `error`
 *   envelope (an extension; a plain `ocp/1.0-draft` error has none). Unknown or
 *   absent reads as `internal`.
 * - {@link OcpError}: a local error with a stable string code. It never goes on
 *   the wire.
 */

export const WIRE_ERROR_CODES = [
  "bad_request",
  "unsupported_kind",
  "incompatible_version",
  "budget_unsatisfiable",
  "unavailable",
  "shutting_down",
  "internal",
] as const;
export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(WIRE_ERROR_CODES);

/** The code of an `error` envelope; unknown or absent reads as `internal`. */
export function readWireErrorCode(code: unknown): WireErrorCode {
  return typeof code === "string" && KNOWN_CODES.has(code) ? (code as WireErrorCode) : "internal";
}

/** Codes of {@link OcpError} raised by this package. */
export type TypesErrorCode =
  | "invalid_json"
  | "invalid_envelope"
  | "embedded_newline"
  | "line_too_long"
  | "invalid_value";

/**
 * A local, typed error with a stable `code`. Packages built on this one use
 * the same class with their own codes (`consent_required`, `timeout`, ...).
 */
export class OcpError<Code extends string = string> extends Error {
  override readonly name: string = "OcpError";
  readonly code: Code;
  /** Structured facts about the failure (never secrets). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: Code,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

/** Whether `value` is an {@link OcpError}, optionally with the given code. */
export function isOcpError<C extends string>(value: unknown, code?: C): value is OcpError<C> {
  return value instanceof OcpError && (code === undefined || value.code === code);
}

/**
 * The local error for an `error` envelope a provider sent, the same on every
 * transport: `provider_error`, or `incompatible_version` when the wire code
 * says so (H3). `details.code` holds the wire code (unknown or absent reads as
 * `internal`) and `details.message` the provider's message.
 */
export function fromErrorEnvelope(
  envelope: { code?: string | undefined; message: string },
  providerId: string,
): OcpError<"incompatible_version" | "provider_error"> {
  const code = readWireErrorCode(envelope.code);
  const local = code === "incompatible_version" ? "incompatible_version" : "provider_error";
  return new OcpError(
    local,
    `provider "${providerId}" answered error (${code}): ${envelope.message}`,
    {
      details: { code, message: envelope.message },
    },
  );
}
