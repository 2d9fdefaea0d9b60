import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "host",
    include: ["test/**/*.test.ts"],
    // Real children and sockets on a loaded 2-core machine: a generous bound,
    // not a speed claim (speed is measured by `pnpm bench`).
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
