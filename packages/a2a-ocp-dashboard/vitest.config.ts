import { configDefaults, defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "a2a-ocp-dashboard",
    include: ["test/**/*.test.ts"],
    // The 1,000-agent load test: vitest.heavy.config.ts (`pnpm test:heavy`).
    exclude: [...configDefaults.exclude, "**/*.heavy.test.ts"],
    // The browser tests start Chromium, a hub and agent processes: one file at a time.
    fileParallelism: false,
  },
});
