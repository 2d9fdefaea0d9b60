import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyRemote,
  deleteLocal,
  type ItemKind,
  type KnowledgeGraph,
  putLocalEdge,
  putLocalNode,
  snapshot,
} from "../src/graph.js";
import { MemoryGraph } from "../src/memory-graph.js";
import type { MergeConflict, VersionedItem } from "../src/merge.js";
import { deltaPages, requestVector, SyncReceiver } from "../src/sync.js";
import { compareVectors } from "../src/version-vector.js";

/**
 * An in-memory network of replicas: local edits are broadcast as messages
 * that sit in per-link queues; the scheduler delivers them in a random order,
 * drops the links of partitioned replicas (a partition loses what was in
 * flight, like a dropped socket), and at the end every replica delta-syncs
 * with every other until nothing changes.
 */

const AGENTS = ["a2a://a", "a2a://b", "a2a://c", "a2a://d"];
const NODE_IDS = ["n1", "n2", "n3"];

type Op =
  | { op: "edit"; agent: number; node: number; text: string }
  | { op: "delete"; agent: number; node: number }
  | { op: "edge"; agent: number; from: number; to: number; weight: number }
  | { op: "unedge"; agent: number }
  | { op: "deliver"; pick: number }
  | { op: "partition"; agent: number }
  | { op: "heal"; agent: number }
  | { op: "sync"; from: number; to: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("edit" as const),
      agent: fc.nat(3),
      node: fc.nat(2),
      text: fc.string({ maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("delete" as const), agent: fc.nat(3), node: fc.nat(2) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("edge" as const),
      agent: fc.nat(3),
      from: fc.nat(2),
      to: fc.nat(2),
      weight: fc.constantFrom(0.25, 0.5, 1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("unedge" as const), agent: fc.nat(3) }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant("deliver" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("partition" as const), agent: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("heal" as const), agent: fc.nat(3) }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("sync" as const), from: fc.nat(3), to: fc.nat(3) }),
  },
);

interface InFlight {
  to: number;
  items: { kind: ItemKind; item: VersionedItem }[];
}

type Report = (agent: number, conflicts: readonly MergeConflict<VersionedItem>[]) => void;

function syncPair(graphs: KnowledgeGraph[], requester: number, responder: number, report: Report) {
  const req = graphs[requester] as KnowledgeGraph;
  const res = graphs[responder] as KnowledgeGraph;
  const request = {
    syncId: `s-${requester}-${responder}`,
    versionVector: requestVector(req, [res.replicaId]),
  };
  const receiver = new SyncReceiver(req, res.replicaId, false);
  for (const page of deltaPages(res, request, 2)) {
    const result = receiver.accept(JSON.parse(JSON.stringify(page)));
    report(requester, result.conflicts);
  }
  expect(receiver.complete).toBe(true);
}

describe("convergence of replicated knowledge graphs", () => {
  it("after random concurrent edits, reordered delivery, partitions and sync, every graph (nodes, edges, tombstones) is identical and every concurrent node edit is reported, never twice by one replica", () => {
    // Not vacuous: across the runs, concurrent edits and their conflicts do happen.
    let conflictsSeen = 0;
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const graphs = AGENTS.map((id) => new MemoryGraph(id));
        const partitioned = new Set<number>();
        let queue: InFlight[] = [];
        const reported = AGENTS.map(() => new Set<string>());
        const reportedNodes = new Set<string>();
        const report: Report = (agent, conflicts) => {
          for (const c of conflicts) {
            expect(
              reported[agent]?.has(c.conflictId),
              `${c.conflictId} reported twice at ${agent}`,
            ).toBe(false);
            reported[agent]?.add(c.conflictId);
            conflictsSeen += 1;
            reportedNodes.add(c.local.id);
          }
        };
        const versionsByNode = new Map<string, VersionedItem[]>();
        const broadcast = (from: number, item: VersionedItem, kind: ItemKind = "node") => {
          if (kind === "node")
            versionsByNode.set(item.id, [...(versionsByNode.get(item.id) ?? []), item]);
          for (let to = 0; to < AGENTS.length; to++) {
            if (to !== from && !partitioned.has(from) && !partitioned.has(to)) {
              queue.push({ to, items: [{ kind, item }] });
            }
          }
        };
        const apply = (agent: number, items: InFlight["items"]) => {
          const result = applyRemote(graphs[agent] as KnowledgeGraph, items);
          report(agent, result.conflicts);
        };
        for (const op of ops) {
          if (op.op === "edit") {
            const g = graphs[op.agent] as KnowledgeGraph;
            const id = NODE_IDS[op.node] as string;
            const node = putLocalNode(g, {
              id,
              type: "note",
              title: op.text,
              data: { text: op.text },
              confidence: 0.5,
              timestamp: "2026-01-01T00:00:00Z",
              createdBy: g.replicaId,
              tags: [],
            });
            broadcast(op.agent, node);
          } else if (op.op === "delete") {
            const g = graphs[op.agent] as KnowledgeGraph;
            const tomb = deleteLocal(g, "node", NODE_IDS[op.node] as string);
            if (tomb !== undefined) broadcast(op.agent, tomb);
          } else if (op.op === "edge") {
            const g = graphs[op.agent] as KnowledgeGraph;
            const edge = putLocalEdge(g, {
              id: "e1",
              source: NODE_IDS[op.from] as string,
              target: NODE_IDS[op.to] as string,
              relationship: "relates",
              weight: op.weight,
            });
            broadcast(op.agent, edge, "edge");
          } else if (op.op === "unedge") {
            const tomb = deleteLocal(graphs[op.agent] as KnowledgeGraph, "edge", "e1");
            if (tomb !== undefined) broadcast(op.agent, tomb, "edge");
          } else if (op.op === "deliver") {
            if (queue.length === 0) continue;
            const [msg] = queue.splice(op.pick % queue.length, 1);
            if (msg !== undefined) apply(msg.to, msg.items);
          } else if (op.op === "partition") {
            partitioned.add(op.agent);
            queue = queue.filter((m) => m.to !== op.agent);
          } else if (op.op === "heal") {
            partitioned.delete(op.agent);
          } else if (op.from !== op.to && !partitioned.has(op.from) && !partitioned.has(op.to)) {
            syncPair(graphs, op.from, op.to, report);
          }
        }
        // Reconnect everyone, then anti-entropy: pairwise delta sync until a round changes nothing.
        partitioned.clear();
        for (let round = 0; round < 3; round++) {
          for (let i = 0; i < AGENTS.length; i++) {
            for (let j = 0; j < AGENTS.length; j++) if (i !== j) syncPair(graphs, i, j, report);
          }
        }
        const reference = JSON.stringify(snapshot(graphs[0] as KnowledgeGraph));
        for (const g of graphs) expect(JSON.stringify(snapshot(g))).toBe(reference);
        // Every node that received concurrent versions had at least one conflict reported somewhere.
        for (const [id, versions] of versionsByNode) {
          const concurrent = versions.some((a) =>
            versions.some((b) => compareVectors(a.ocpVersion, b.ocpVersion) === "concurrent"),
          );
          if (concurrent) {
            expect(reportedNodes.has(id), `node ${id} had concurrent versions and no report`).toBe(
              true,
            );
          }
        }
      }),
      { numRuns: 150 },
    );
    expect(conflictsSeen).toBeGreaterThan(0);
  }, 30_000);
});
