import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "a2a-ocp-messaging",
    include: ["test/**/*.test.ts"],
    // The heavy tier runs with vitest.heavy.config.ts (`pnpm run test:heavy`).
    exclude: ["**/*.heavy.test.ts"],
  },
});
