import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "transport-stdio",
    include: ["test/**/*.test.ts"],
    // Real child processes and sockets on a shared 2-core machine: a generous bound per test.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
