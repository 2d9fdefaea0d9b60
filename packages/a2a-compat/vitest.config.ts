import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "a2a-compat",
    include: ["test/**/*.test.ts"],
  },
});
