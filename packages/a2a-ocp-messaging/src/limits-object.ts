/**
 * Every limit of `@ocp/a2a-ocp-messaging`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
