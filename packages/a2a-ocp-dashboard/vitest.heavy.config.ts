import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

/** The heavy tier (`pnpm test:heavy`): 1,000 agents and the dashboard in Chromium. */
export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "a2a-ocp-dashboard (heavy)",
    include: ["test/**/*.heavy.test.ts"],
    fileParallelism: false,
  },
});
