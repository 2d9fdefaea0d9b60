import * as authLimits from "./auth-limits.js";
import * as limits from "./limits.js";

const values = { ...limits, ...authLimits };

/**
 * Every limit of `@ocp/a2a-compat`, by name, frozen: the finite defaults the
 * package enforces. Each member is documented where it is defined
 * (`src/limits.ts`, `src/auth-limits.ts`) and listed in the README's limits tables.
 */
export const LIMITS = Object.freeze(values);
