import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "a2a-compat",
    include: ["test/**/*.test.ts"],
  },
});
