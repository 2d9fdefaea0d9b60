import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "transport-ws",
    include: ["test/**/*.test.ts"],
  },
});
