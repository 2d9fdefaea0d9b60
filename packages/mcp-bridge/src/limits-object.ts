import * as limits from "./limits.js";

const { positiveLimit: _reader, ...values } = limits;

/**
 * Every limit of `@ocp/mcp-bridge`, by name, frozen: the finite defaults the
 * package enforces. Each member is documented where it is defined (`src/limits.ts`)
 * and listed in the README's limits table.
 */
export const LIMITS = Object.freeze(values);
