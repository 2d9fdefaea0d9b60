import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { afterAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import type { ConsensusDecision } from "../src/agent-consensus.js";
import { deleteLocal, putLocalNode, snapshot } from "../src/graph.js";
import { MemoryNetwork } from "../src/link.js";
import { MemoryGraph } from "../src/memory-graph.js";
import { SqliteConsensusStore } from "../src/sqlite/sqlite-consensus.js";
import { SqliteGraph } from "../src/sqlite/sqlite-graph.js";
import { deltaPages, SyncReceiver } from "../src/sync.js";
import { node, until } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "ocp-agent-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite persistence", () => {
  it("a SqliteGraph keeps nodes, tombstones, its change log, edit counter and watermarks across a reopen, and syncs like a MemoryGraph", () => {
    const path = join(dir, "graph.sqlite");
    const g = new SqliteGraph("a2a://a", path);
    const kept = putLocalNode(g, node({ createdBy: "a2a://a", title: "kept" }));
    const gone = putLocalNode(g, node({ createdBy: "a2a://a", title: "gone" }));
    deleteLocal(g, "node", gone.id);
    g.setWatermark("a2a://b", 7);
    const before = snapshot(g);
    g.close();
    const reopened = new SqliteGraph("a2a://a", path);
    expect(snapshot(reopened)).toEqual(before);
    expect(reopened.liveNodes().map((n) => n.id)).toEqual([kept.id]);
    expect(reopened.watermark("a2a://b")).toBe(7);
    expect(putLocalNode(reopened, { ...kept, title: "edited" }).ocpVersion).toEqual({
      "a2a://a": 4,
    });
    const mirror = new MemoryGraph("a2a://m");
    const receiver = new SyncReceiver(mirror, "a2a://a", false);
    for (const page of deltaPages(reopened, { syncId: "s" }, 1)) receiver.accept(page);
    expect(snapshot(mirror)).toEqual(snapshot(reopened));
    expect(mirror.watermark("a2a://a")).toBe(reopened.changeSeq());
    reopened.close();
  });

  it("a proposer that restarts during the voting period still announces the timeout, with the votes counted before the restart", async () => {
    const net = new MemoryNetwork();
    const aliceId = generateIdentity("a2a://alice");
    const bobId = generateIdentity("a2a://bob");
    const storePath = join(dir, "consensus.sqlite");
    const store1 = new SqliteConsensusStore(storePath);
    const alice1 = new OCPAgent({
      identity: aliceId,
      link: net.link(aliceId.id, aliceId.publicKey),
      consensusStore: store1,
    }).start();
    const bob = new OCPAgent({
      identity: bobId,
      link: net.link(bobId.id, bobId.publicKey),
    }).start();
    const decisions: ConsensusDecision[] = [];
    bob.on("consensus", (d) => decisions.push(d));
    const seen = bob.once("proposal");
    const proposalId = await alice1.propose({
      topic: "t",
      proposal: {},
      votingPeriod: 1,
      requiredVotes: 2,
      votingRule: "unanimous",
    });
    await seen;
    await bob.vote(proposalId, "approve");
    await until(() => (store1.load(proposalId)?.votes.length ?? 0) === 1, "vote persisted");
    await alice1.close();
    store1.close();
    const store2 = new SqliteConsensusStore(storePath);
    const alice2 = new OCPAgent({
      identity: aliceId,
      link: net.link(aliceId.id, aliceId.publicKey),
      consensusStore: store2,
    }).start();
    await until(() => decisions.length === 1, "timeout after the restart");
    expect(decisions[0]).toMatchObject({
      proposalId,
      status: "timeout",
      verified: true,
      votes: { approve: 1, reject: 0, abstain: 0 },
    });
    expect(store2.pending()).toEqual([]);
    await alice2.close();
    await bob.close();
    store2.close();
  }, 30_000);
});
