import { configDefaults, defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "demo-team",
    include: ["test/**/*.test.ts"],
    // The federation demo run (two hubs, a hub killed and restarted): vitest.heavy.config.ts.
    exclude: [...configDefaults.exclude, "**/*.heavy.test.ts"],
  },
});
