import { configDefaults, defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "a2a-ocp-hub",
    include: ["test/**/*.test.ts"],
    // Load, crash, scale and cluster tests: vitest.heavy.config.ts (`pnpm test:heavy`).
    exclude: [...configDefaults.exclude, "**/*.heavy.test.ts"],
  },
});
