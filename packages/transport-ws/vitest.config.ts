import { configDefaults, defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "transport-ws",
    include: ["test/**/*.test.ts"],
    // Load tests (back-pressure, slow consumers): vitest.heavy.config.ts (`pnpm test:heavy`).
    exclude: [...configDefaults.exclude, "**/*.heavy.test.ts"],
    // Every wait inside the tests is bounded on its own (test/helpers.ts);
    // this is only the outer bound, generous for a loaded CI machine.
    testTimeout: 30_000,
  },
});
