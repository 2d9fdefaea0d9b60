import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

/** The heavy tier (`pnpm test:heavy`): load, crash, scale and cluster tests. */
export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "transport-ws (heavy)",
    include: ["test/**/*.heavy.test.ts"],
    // One file at a time: load and scale tests do not compete for the CPU.
    fileParallelism: false,
  },
});
