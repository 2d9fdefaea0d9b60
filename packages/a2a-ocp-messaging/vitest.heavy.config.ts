import { defineProject } from "vitest/config";

// The heavy tier (`pnpm run test:heavy`): tests that install from the network.
export default defineProject({
  test: {
    name: "a2a-ocp-messaging:heavy",
    include: ["test/**/*.heavy.test.ts"],
  },
});
