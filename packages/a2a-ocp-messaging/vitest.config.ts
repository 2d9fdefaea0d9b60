import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "a2a-ocp-messaging",
    include: ["test/**/*.test.ts"],
  },
});
