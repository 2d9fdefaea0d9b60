// Serves a ContextProvider over HTTP behind a bearer token, then queries it
// as a remote provider: always egress (C4), never plain http off loopback.
import { connectHttpProvider, createHttpProviderServer } from "@ocp/transport-http";

const token = "example-token"; // in real use, from a secret store: it is never logged

const server = createHttpProviderServer(
  {
    id: "docs",
    info: {
      name: "docs",
      version: "2.1.0",
      data_flow: { reads: true, writes: false, egress: false },
    },
    capabilities: {
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
    },
    async query(query) {
      const frame = {
        id: "docs:1",
        kind: "doc",
        title: "Retry",
        content: `about ${query.goal}`,
        score: 0.8,
        token_cost: 5,
        citation_label: "docs/retry",
      };
      return { frames: [frame], truncated: false };
    },
    async shutdown() {},
  },
  { path: "/ocp", token },
);
const url = await server.listen(); // 127.0.0.1, a free port

const provider = await connectHttpProvider({ id: "docs", url, token });
console.log(
  "declared egress:",
  provider.declaredInfo.data_flow.egress,
  "treated as:",
  provider.info.data_flow.egress,
);
const result = await provider.query({
  goal: "retries",
  kinds: [],
  anchors: [],
  max_frames: 3,
  max_tokens: 50,
});
console.log(result.frames.map((frame) => `${frame.citation_label}: ${frame.content}`));
await provider.shutdown();
await server.shutdownRequested;
await server.close();

await connectHttpProvider({ id: "far", url: "http://203.0.113.7/ocp", token }).catch((error) =>
  console.log(error.code, "-", error.message),
);
