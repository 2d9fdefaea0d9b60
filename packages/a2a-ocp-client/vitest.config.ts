import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "a2a-ocp-client",
    include: ["test/**/*.test.ts"],
  },
});
