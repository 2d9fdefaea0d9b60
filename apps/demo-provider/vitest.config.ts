import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "demo-provider",
    include: ["test/**/*.test.ts"],
    // These tests start the apps as real processes; on a loaded two-core machine
    // a cold start (loading the BPE tables) takes seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
