import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

// The heavy tier (`pnpm run test:heavy`): tests that install from the network.
export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "a2a-ocp-messaging:heavy",
    include: ["test/**/*.heavy.test.ts"],
  },
});
