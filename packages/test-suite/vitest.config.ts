import { configDefaults, defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "test-suite",
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.heavy.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
