import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "demo-provider",
    include: ["test/**/*.test.ts"],
    // These tests start the apps as real processes; on a loaded two-core machine
    // a cold start (loading the BPE tables) takes seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
