// Makes the built bins executable, so `npx ocp-inspect` works from a checkout too.
import { chmodSync } from "node:fs";

for (const bin of ["dist/cli.js", "dist/fixture/cli.js", "dist/fixture/agent-cli.js"])
  chmodSync(bin, 0o755);
