// pnpm bench: delta sync of a 100,000-node knowledge graph with 1% of the
// nodes changed, beside a full sync of the same graph in the same run. Each
// page goes through JSON (what the wire carries), is parsed, its SHA-256
// checksum verified and merged, as a receiving agent does.
// Figures depend on the machine; the ratios are what to compare across runs.
import { loadavg } from "node:os";
import { MemoryGraph } from "../dist/index.js";
import { deltaPages, putLocalNode, requestVector, SyncReceiver } from "../dist/internal.js";

const NODES = Number(process.env.BENCH_SYNC_NODES ?? 100_000);
const CHANGED = Math.max(1, Math.round(NODES * 0.01));
const SOURCE = "a2a://bench-source";

const node = (i, version = 0) => ({
  id: `node-${i}`,
  type: "code.solution",
  title: `Fix number ${i} (revision ${version})`,
  description: "Close the socket and drop the connection from the registry.",
  data: {
    code: "ws.on('close', () => { connections.delete(id); })",
    tested: true,
    revision: version,
  },
  confidence: 0.9,
  timestamp: "2026-01-01T00:00:00Z",
  createdBy: SOURCE,
  tags: ["websocket", "fix"],
  metadata: { domain: "backend" },
});

/** Sends every page of the answer through JSON into `target`; returns bytes, pages, items and ms. */
function syncInto(source, target, request) {
  const started = performance.now();
  const receiver = new SyncReceiver(target, source.replicaId, false);
  let bytes = 0;
  let pages = 0;
  for (const page of deltaPages(source, request)) {
    const wire = JSON.stringify(page);
    bytes += Buffer.byteLength(wire);
    pages += 1;
    receiver.accept(JSON.parse(wire));
  }
  return { bytes, pages, items: receiver.itemsSynced, ms: performance.now() - started };
}

const source = new MemoryGraph(SOURCE);
for (let i = 0; i < NODES; i++) putLocalNode(source, node(i));

// Warm-up on a small graph so the JIT has seen the code paths.
const warm = new MemoryGraph("a2a://warm");
for (let i = 0; i < 2000; i++) putLocalNode(warm, node(i));
syncInto(warm, new MemoryGraph("a2a://warm-target"), { syncId: "warm" });

const replica = new MemoryGraph("a2a://bench-replica");
const full = syncInto(source, replica, { syncId: "full" });
for (let i = 0; i < CHANGED; i++) putLocalNode(source, node(i * 100, 1));
const delta = syncInto(source, replica, {
  syncId: "delta",
  versionVector: requestVector(replica, [SOURCE]),
});
// The same change set again as a full sync, for the comparison the issue asks for.
const fresh = new MemoryGraph("a2a://bench-fresh");
const fullAfter = syncInto(source, fresh, { syncId: "full-after" });

const same =
  replica.liveNodes().length === NODES && replica.getNode("node-100")?.data?.revision === 1;
const mb = (b) => `${(b / 1e6).toFixed(2)} MB`;
const row = (name, r) =>
  `${name.padEnd(34)} ${String(r.items).padStart(7)} items ${String(r.pages).padStart(4)} pages ${mb(r.bytes).padStart(10)} ${r.ms.toFixed(0).padStart(6)} ms`;
console.log(
  `agent sync bench: ${NODES} nodes, ${CHANGED} changed (1%), load average ${loadavg()[0].toFixed(2)}`,
);
console.log(row("full sync (empty replica)", full));
console.log(row("delta sync (1% changed)", delta));
console.log(row("full sync after the change", fullAfter));
console.log(
  `delta / full: ${((100 * delta.bytes) / fullAfter.bytes).toFixed(2)}% of the bytes, ${((100 * delta.ms) / fullAfter.ms).toFixed(2)}% of the time; replica converged: ${same}`,
);
if (!same || delta.items !== CHANGED) process.exitCode = 1;
