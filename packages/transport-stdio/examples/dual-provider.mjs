// One provider, both families: each host's handshake picks ocp/1 or contextgraph/1.
import { serveStdio } from "@ocp/transport-stdio";
import { sha256Digest } from "@ocp/types/cgp";
import { defineProvider, verdictsFrom } from "@ocp/types/kit";

const NOTES = { retry: "max_attempts bounds the tries; backoff_ms doubles after each one." };
const provider = defineProvider({
  id: "notes",
  info: { name: "notes", version: "1.0.0", data_flow: { reads: true } },
  capabilities: { query: { kinds: ["doc"] } },
  cgp: { egressScopes: ["local-only"] }, // C5: checked here, at start-up
  async query() {
    // Costed as ocp/1 counts it; under contextgraph/1 the kit sets the B3 cost and content_digest.
    const frame = { id: "retry", kind: "doc", title: "Retry", content: NOTES.retry, score: 0.9 };
    return { frames: [{ ...frame, token_cost: 15, citation_label: "retry.md" }], truncated: false };
  },
  // V1–V4: each presented digest against the one served now (none: gone).
  verify: async (frames) => verdictsFrom(frames, (id) => NOTES[id] && sha256Digest(NOTES[id])),
});
serveStdio(provider);
