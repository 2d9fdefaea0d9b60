import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "a2a-ocp-messaging",
    include: ["test/**/*.test.ts"],
    // The heavy tier runs with vitest.heavy.config.ts (`pnpm run test:heavy`).
    exclude: ["**/*.heavy.test.ts"],
    // Property tests run hundreds of signatures; this is a hang guard, not a speed check.
    testTimeout: 120_000,
  },
});
