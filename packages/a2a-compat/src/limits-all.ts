/** The limits of `limits.ts` and `auth-limits.ts`, as one module (`LIMITS`). */
export * from "./auth-limits.js";
export * from "./limits.js";
