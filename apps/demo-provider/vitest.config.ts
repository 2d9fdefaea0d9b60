import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "demo-provider",
    include: ["test/**/*.test.ts"],
  },
});
