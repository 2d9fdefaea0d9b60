/**
 * What every package's vitest project shares (each `vitest.*config.ts`
 * spreads it into `test`).
 *
 * `env`: pnpm runs `vitest` through a bin shim that sets NODE_PATH to the
 * workspace's hoisted packages (`node_modules/.pnpm/node_modules`). A child a
 * test spawns (a CLI, a provider, a hub, a demo) would inherit it, and a
 * `require` in that child (optional peers such as `sodium-native` and
 * `better-sqlite3` are loaded that way) would find packages its own package
 * never declared: a test would pass where an installed package fails. An
 * empty NODE_PATH gives children the resolution an installed package gets.
 *
 * `testTimeout`: 20 s, not vitest's 5 s. A timeout here says a test hung, not
 * that it was slow: property tests run hundreds of cases, and on a 2-core
 * machine shared with other work a 5 s bound failed tests that pass alone.
 * No test asserts speed (benches do that); files that spawn servers set
 * their own longer bounds.
 */
export const sharedTestOptions = {
  env: { NODE_PATH: "" },
  testTimeout: 20_000,
};
