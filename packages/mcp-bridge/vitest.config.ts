import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "mcp-bridge",
    include: ["test/**/*.test.ts"],
  },
});
