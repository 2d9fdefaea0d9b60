import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "a2a-ocp-messaging",
    include: ["test/**/*.test.ts"],
    // The heavy tier runs with vitest.heavy.config.ts (`pnpm run test:heavy`).
    exclude: ["**/*.heavy.test.ts"],
  },
});
