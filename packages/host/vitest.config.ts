import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "host",
    include: ["test/**/*.test.ts"],
  },
});
