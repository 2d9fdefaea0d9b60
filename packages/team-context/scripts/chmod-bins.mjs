// Makes the built bin executable, so `npx ocp-team-context` works from a checkout too.
import { chmodSync } from "node:fs";

chmodSync("dist/cli.js", 0o755);
