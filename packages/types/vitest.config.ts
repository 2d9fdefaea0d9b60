import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "types",
    include: ["test/**/*.test.ts"],
  },
});
