import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

/** The heavy tier (`pnpm test:heavy`): the suite against a cluster of hub processes over NATS. */
export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "test-suite (heavy)",
    include: ["test/**/*.heavy.test.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
