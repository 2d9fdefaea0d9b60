/**
 * Every limit of the host, as a named constant with a finite default. Each
 * one can be overridden per host (see `HostOptions`) or per call, never
 * switched off: a limit of 0 is refused, not read as "unlimited".
 */

/** Default time one fan-out leg (one provider's answer) may take. */
export const DEFAULT_LEG_TIMEOUT_MS = 10_000;

/** Longest per-leg timeout a caller may ask for (ten minutes). */
export const MAX_LEG_TIMEOUT_MS = 600_000;

/** How many providers one host may hold at once; `add` refuses the next. */
export const MAX_PROVIDERS = 64;

/** Largest `maxProviders` a host accepts (each provider may be a child process). */
export const MAX_PROVIDERS_CEILING = 1_024;

/** Longest provider id, in UTF-16 code units. */
export const MAX_PROVIDER_ID_LENGTH = 128;

/** Time `shutdown()` gives each provider before reporting it as a straggler. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5_000;

/** Budget of `compose` when the caller names none, in o200k_base tokens. */
export const DEFAULT_COMPOSE_MAX_TOKENS = 8_000;

/** Most frames one composed section may hold; the rest are dropped `frame_limit`. */
export const DEFAULT_COMPOSE_MAX_FRAMES = 256;

/** Most candidate frames `compose` accepts in one call. */
export const MAX_COMPOSE_CANDIDATES = 200_000;

/**
 * T1 (extension): the one threshold of the rule table, shared with the suite
 * (`@ocp/types`): a frame breaks T1 when the o200k_base count of its content
 * exceeds `declared * COST_TOLERANCE_RATIO + COST_TOLERANCE_SLACK`.
 */
export { COST_TOLERANCE_RATIO, COST_TOLERANCE_SLACK } from "@ocp/types";

/** Largest consent file `ConsentStore.open` reads; larger is refused. */
export const MAX_CONSENT_FILE_BYTES = 16 * 1024 * 1024;

/** Longest `what_leaves` or `granted_by` text a consent receipt may carry. */
export const MAX_CONSENT_TEXT_LENGTH = 4_096;

/** F5 bytes: largest file the host re-reads to check a `file` provenance digest. */
export const MAX_PROVENANCE_FILE_BYTES = 16 * 1024 * 1024;
