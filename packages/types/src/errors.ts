/**
 * Two error families, as in the models we follow:
 *
 * - {@link WireErrorCode}: the `code` a provider may put on an `error`
 *   envelope (an extension; a plain `ocp/1.0-draft` error has none). Unknown or
 *   absent reads as `internal`.
 * - {@link OcpError}: a local error with a stable string code. It never goes on
 *   the wire.
 */

import { codeReader } from "./closed-set.js";

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

const readCode = codeReader(WIRE_ERROR_CODES, "internal");

/** The code of an `error` envelope; unknown or absent reads as `internal`. */
export function readWireErrorCode(code: unknown): WireErrorCode {
  return readCode(code);
}

/** Codes of {@link OcpError} raised by this package. */
export type TypesErrorCode =
  | "invalid_json"
  | "invalid_envelope"
  | "embedded_newline"
  | "line_too_long"
  | "invalid_value";

/** What an {@link OcpError} carries beside its code and message. */
export interface OcpErrorOptions {
  cause?: unknown;
  /** Structured facts about the failure (never secrets). */
  details?: Record<string, unknown>;
}

/**
 * The parameter type of {@link OcpError}'s code: the code union given as the
 * type argument. Without one (`new OcpError("…")`) it is a type no string
 * literal meets, so a raw code cannot compile: raise through the package's
 * typed factory ({@link errorFactory}) or name the union.
 */
export type OcpErrorCodeParameter<Code extends string> = string extends Code
  ? "OcpError needs its code union: use the package's error factory or new OcpError<Code>(…)"
  : Code;

/**
 * A local, typed error with a stable `code`. Packages built on this one use
 * the same class with their own codes (`consent_required`, `timeout`, ...),
 * each through its own typed factory, so a code outside the package's table
 * does not compile.
 */
export class OcpError<Code extends string = string> extends Error {
  override readonly name: string = "OcpError";
  readonly code: Code;
  /** Structured facts about the failure (never secrets). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: NoInfer<OcpErrorCodeParameter<Code>>,
    message: string,
    options: OcpErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // For every Code but `string` itself the parameter type is Code.
    this.code = code as Code;
    this.details = options.details ?? {};
  }
}

/**
 * A package's typed constructor of {@link OcpError}s: accepts only that
 * package's codes, and types the error by the code given.
 */
export type ErrorFactory<Code extends string> = <C extends Code>(
  code: C,
  message: string,
  options?: OcpErrorOptions,
) => OcpError<C>;

/**
 * The error factory of a package whose codes are `Code` (the keys of its
 * error table): `export const hubError = errorFactory<HubCode>()`. Every
 * package raises through its own, so `hubError("no_such_code", …)` fails to
 * compile.
 */
export function errorFactory<Code extends string>(): ErrorFactory<Code> {
  return <C extends Code>(code: C, message: string, options: OcpErrorOptions = {}) =>
    new OcpError<C>(code as NoInfer<OcpErrorCodeParameter<C>>, message, options);
}

/**
 * An error whose code another party chose (a hub's reject, a peer's
 * refusal, read from the wire): not one of this package's codes, so typed
 * `string`. The one way to raise an {@link OcpError} with an open code.
 */
export function foreignError(
  code: string,
  message: string,
  options: OcpErrorOptions = {},
): OcpError<string> {
  return new OcpError<string>(code as NoInfer<OcpErrorCodeParameter<string>>, message, options);
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

/** Raises this package's own errors ({@link TypesErrorCode}). */
export const typesError: ErrorFactory<TypesErrorCode> = errorFactory<TypesErrorCode>();

/**
 * Raises an error whose code goes on the wire ({@link WireErrorCode}): what a
 * provider throws to answer `unavailable`, `bad_request`, …
 */
export const wireError: ErrorFactory<WireErrorCode> = errorFactory<WireErrorCode>();
