// The real provider side: serveStdio (guard rail on, as shipped) answering
// every query with the bench frames. Usage: node ocp-provider.mjs small|large
import { serveStdio } from "../../dist/index.js";
import { benchCapabilities, benchInfo, benchResult } from "../frames.mjs";

const result = benchResult(process.argv[2] ?? "small");
serveStdio({
  id: "bench",
  info: benchInfo,
  capabilities: benchCapabilities,
  async query() {
    return result;
  },
  async shutdown() {},
});
