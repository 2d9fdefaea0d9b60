// Step 4 of the federation demo: globex's hub is killed (SIGKILL) while
// Alice streams to Bob, Alice keeps streaming (acme's hub acknowledges into
// its outbox), globex's hub starts again on the same files: everything
// acknowledged reaches Bob, and nothing is applied twice.

import { until } from "../wait.mjs";
import { auditLog, startHub } from "./hubs.mjs";

/** Messages Alice streams; globex's hub dies after the first `KILL_AFTER` are acknowledged. */
const TOTAL = 30;
const KILL_AFTER = 10;

export async function restartMidStream(ctx, check) {
  const { say, orgs, hubs, agents, children } = ctx;
  const { alice, bob } = agents;
  say("== 4. Globex's hub is killed mid-stream and comes back");
  const title = (i) => `Numbered fix ${String(i).padStart(2, "0")}`;
  const acked = [];
  for (let i = 1; i <= TOTAL; i++) {
    if (i === KILL_AFTER + 1) {
      const before = bob.titles().filter((t) => t.startsWith("Numbered fix")).length;
      await hubs.globex.kill();
      say(
        `globex  hub killed (SIGKILL) after ${KILL_AFTER} were acknowledged; bob had received ${before} of them`,
      );
    }
    const r = await alice.run({
      cmd: "send",
      type: "ocp.knowledge.stream",
      to: bob.id,
      payload: { streamId: "demo-numbered", edges: [], isIncremental: true, sequenceNumber: i },
      nodes: [{ title: title(i), visibility: "public" }],
    });
    if (r.sent) acked.push({ i, id: r.messageId });
  }
  check(acked.length === TOTAL, `acme's hub acknowledged all ${TOTAL} sends`);
  say(
    `alice   ${acked.length} of ${TOTAL} acknowledged by acme's hub (durable: in its outbox for globex)`,
  );
  hubs.globex = await startHub(orgs.globex, children);
  say("globex  hub started again on the same SQLite file, key and ports; it dials acme again");
  await until(
    () => acked.every(({ i }) => bob.titles().includes(title(i))),
    "bob receives every acknowledged message",
    30_000,
  );
  // Late duplicates would arrive after the last one: wait a little before counting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const counts = acked.map(({ i }) => bob.titles().filter((t) => t === title(i)).length);
  check(
    counts.every((n) => n === 1),
    "each acknowledged message reached bob exactly once",
  );
  say(
    `bob     reconnected by himself and has all ${TOTAL}, each exactly once (${bob.received.length} messages checked)`,
  );
  // Bob's client also drops a repeated message id by itself: the hub's own record is the stricter check.
  const ids = new Set(acked.map((a) => a.id));
  const accepted = auditLog(orgs.globex, "accepted").filter((e) => ids.has(e.id));
  const perId = new Map();
  for (const e of accepted) perId.set(e.id, (perId.get(e.id) ?? 0) + 1);
  check(
    [...perId.values()].every((n) => n === 1),
    "globex's audit log accepts each message at most once",
  );
  const unlogged = TOTAL - perId.size;
  say(
    `globex  its audit log accepted ${perId.size} of them from acme and none twice: a resend after the restart is acknowledged, not applied${unlogged === 0 ? "" : ` (${unlogged} accepted as it was killed left no audit entry)`}`,
  );
}
