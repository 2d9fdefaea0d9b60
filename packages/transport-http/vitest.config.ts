import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "transport-http",
    include: ["test/**/*.test.ts"],
    // Real child processes and sockets on a shared 2-core machine: a generous bound per test.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
