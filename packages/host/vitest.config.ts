import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "host",
    include: ["test/**/*.test.ts"],
    // Real children and sockets on a loaded 2-core machine: a generous bound,
    // not a speed claim (speed is measured by `pnpm bench`).
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
