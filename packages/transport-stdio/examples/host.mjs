// Spawns examples/provider.mjs, queries it, shuts it down.
import { fileURLToPath } from "node:url";
import { spawnStdioProvider } from "@ocp/transport-stdio";

const provider = await spawnStdioProvider({
  id: "notes",
  command: process.execPath,
  args: [fileURLToPath(new URL("./provider.mjs", import.meta.url))],
  env: { NOTES_DIR: "/srv/notes" }, // the child sees PATH, HOME and NOTES_DIR only
});
console.log(provider.info.name, provider.protocolVersion, "correlated:", provider.correlated);
const result = await provider.query({
  goal: "retry policy",
  kinds: ["doc"],
  anchors: [],
  max_frames: 5,
  max_tokens: 100,
});
console.log(result.frames.map((frame) => `${frame.citation_label}: ${frame.content}`));
await provider.shutdown();
console.log("exit:", await provider.exited, "stderr:", JSON.stringify(provider.stderr()));
