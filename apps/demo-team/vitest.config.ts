import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "demo-team",
    include: ["test/**/*.test.ts"],
  },
});
