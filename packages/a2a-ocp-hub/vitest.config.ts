import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "a2a-ocp-hub",
    include: ["test/**/*.test.ts"],
    // Property tests run hundreds of signatures; this is a hang guard, not a speed check.
    testTimeout: 120_000,
  },
});
