import { configDefaults, defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "test-suite",
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.heavy.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
