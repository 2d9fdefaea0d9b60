import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "client",
    include: ["test/**/*.test.ts"],
  },
});
