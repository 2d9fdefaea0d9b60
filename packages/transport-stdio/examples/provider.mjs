// Any ContextProvider, served on stdin/stdout.
import { serveStdio } from "@ocp/transport-stdio";

serveStdio({
  id: "notes",
  info: {
    name: "notes",
    version: "1.0.0",
    data_flow: { reads: true, writes: false, egress: false },
  },
  capabilities: {
    query: { kinds: ["doc"], filters: [] },
    upsert: false,
    graph: false,
    subscribe: false,
  },
  async query(query) {
    console.error(`query: ${query.goal}`); // logs go to stderr, never stdout
    const frame = {
      id: "notes:retry",
      kind: "doc",
      title: "Retry policy",
      content: `max_attempts bounds the tries (notes in ${process.env.NOTES_DIR}).`,
      score: 0.9,
      token_cost: 12,
      citation_label: "notes/retry.md",
    };
    return { frames: [frame], truncated: false };
  },
  async shutdown() {},
});
