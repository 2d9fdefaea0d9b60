/**
 * `@ocp/a2a-ocp-client/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export * from "./limits.js";
export { hubInfoOf } from "./negotiation.js";
