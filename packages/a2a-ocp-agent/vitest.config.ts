import { configDefaults, defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "a2a-ocp-agent",
    include: ["test/**/*.test.ts"],
    // Cluster tests: vitest.heavy.config.ts (`pnpm test:heavy`).
    exclude: [...configDefaults.exclude, "**/*.heavy.test.ts"],
  },
});
