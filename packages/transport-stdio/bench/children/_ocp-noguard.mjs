import { serveStdio } from "../../dist/index.js";
import { benchCapabilities, benchInfo, benchResult } from "../frames.mjs";
const result = benchResult(process.argv[2] ?? "small");
serveStdio({ id: "bench", info: benchInfo, capabilities: benchCapabilities, async query() { return result; }, async shutdown() {} }, { guard: process.env.GUARD ?? "off" });
