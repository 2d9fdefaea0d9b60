import * as limits from "./limits.js";

/**
 * Every limit of `@ocp/a2a-ocp-client`, by name, frozen: the finite defaults the
 * package enforces. Each member is documented where it is defined (`src/limits.ts`)
 * and listed in the README's limits table.
 */
export const LIMITS = Object.freeze({ ...limits });
