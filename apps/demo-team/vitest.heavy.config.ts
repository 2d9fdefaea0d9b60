import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

/** The heavy tier (`pnpm test:heavy`): the federation demo run for real. */
export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "demo-team (heavy)",
    include: ["test/**/*.heavy.test.ts"],
    fileParallelism: false,
  },
});
