// The federation demo's steps after both hubs and the agents are up. Each
// claim the transcript makes is checked first (`check` throws naming it).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { until } from "../wait.mjs";
import { auditLog } from "./hubs.mjs";
import { restartMidStream } from "./restart.mjs";

/** Throws `claim` when `holds` is false: the transcript says only what was checked. */
export function check(holds, claim) {
  if (!holds) throw new Error(`check failed: ${claim}`);
}

const short = (id) => id.replace("a2a://", "");

function stream(nodes, n = 1) {
  return { streamId: `demo-${n}`, edges: [], isIncremental: true, sequenceNumber: n, nodes };
}

/** Whether any of `org`'s SQLite files (database, WAL) holds `text`, read as raw bytes. */
function storedIn(dir, org, text) {
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${org.name}.sqlite`))
    .some((name) => readFileSync(join(dir, name)).includes(text));
}

export async function scenario(ctx) {
  const { say, dir, orgs, agents } = ctx;
  const { alice, carol, bob } = agents;
  const found = await until(async () => {
    const { agents: ids } = await alice.run({ cmd: "find" });
    return ids.includes(bob.id) && ids;
  }, "alice finds bob's card through acme's hub");
  say(
    `link    up: alice finds bob's public card through her own hub (${found.map(short).join(", ")})`,
  );
  await until(async () => {
    const { agents: ids } = await bob.run({ cmd: "find" });
    return ids.includes(alice.id);
  }, "bob finds alice's card through globex's hub");
  say(
    "        and bob finds alice's through his; ids stay a2a://…, keys come from the signed cards\n",
  );

  say("== 1. Alice shares a public fix and a node shared with Bob; Bob receives both");
  const fix = { title: "WebSocket leak fix", visibility: "public", tags: ["fix"] };
  await alice.run({
    cmd: "send",
    type: "ocp.knowledge.stream",
    to: "broadcast",
    payload: stream([]),
    nodes: [fix],
  });
  say(`alice   streams  "${fix.title}" (public) to everyone`);
  const shared = {
    title: "Staging credentials rotation",
    visibility: "private",
    sharedWith: [bob.id],
  };
  await alice.run({
    cmd: "send",
    type: "ocp.knowledge.stream",
    to: bob.id,
    payload: stream([], 2),
    nodes: [shared],
  });
  say(`alice   sends    "${shared.title}" (private, sharedWith ${short(bob.id)}) to bob`);
  for (const title of [fix.title, shared.title]) {
    const got = await bob.receives((m) => m.titles.includes(title), title);
    say(`bob     receives "${title}" from ${short(got.from)} via globex's hub`);
  }
  const carolGot = await carol.receives((m) => m.titles.includes(fix.title), fix.title);
  check(
    !carol.titles().includes(shared.title),
    "carol (acme) does not get the node shared with bob",
  );
  say(
    `carol   receives "${fix.title}" too (from ${short(carolGot.from)}), not the node shared with bob\n`,
  );

  say("== 2. Acme's team node never reaches globex, by any route");
  const secret = "Acme Q3 acquisition shortlist";
  const team = { title: secret, visibility: "team" };
  const routes = [
    [
      "broadcast stream",
      { type: "ocp.knowledge.stream", to: "broadcast", payload: stream([], 3), nodes: [team] },
    ],
    [
      "stream to bob",
      { type: "ocp.knowledge.stream", to: bob.id, payload: stream([], 4), nodes: [team] },
    ],
    [
      "stream to bob beside a public node",
      {
        type: "ocp.knowledge.stream",
        to: bob.id,
        payload: stream([], 5),
        nodes: [{ title: "Public changelog", visibility: "public" }, team],
      },
    ],
    [
      "stream to bob and carol",
      {
        type: "ocp.knowledge.stream",
        to: [bob.id, carol.id],
        payload: stream([], 6),
        nodes: [team],
      },
    ],
    [
      "sync response to bob",
      {
        type: "ocp.knowledge.sync.response",
        to: bob.id,
        payload: {
          syncId: "demo-sync",
          edges: [],
          versionVector: {},
          isComplete: true,
          checksum: "demo",
        },
        nodes: [team],
      },
    ],
    [
      "collective response to bob",
      {
        type: "ocp.collective.response",
        to: bob.id,
        payload: { queryId: "demo-q0", confidence: 1, processingTime: 1 },
        nodes: [team],
        into: "findings",
      },
    ],
  ];
  const sentIds = [];
  for (const [route, cmd] of routes) {
    const r = await alice.run({ cmd: "send", ...cmd });
    if (r.sent) sentIds.push(r.messageId);
    say(
      `alice   ${route.padEnd(36)} ${r.sent ? `accepted by acme's hub, ${r.recipients} recipient(s)` : `refused ${r.code}`}`,
    );
  }
  // A workspace node: acme's own visibility rule lets every agent its hub knows see it, the crossing rule does not.
  const workspace = { title: "Acme internal on-call rota", visibility: "workspace" };
  const ws = await alice.run({
    cmd: "send",
    type: "ocp.knowledge.stream",
    to: "broadcast",
    payload: stream([], 8),
    nodes: [workspace],
  });
  check(ws.sent, "the workspace node is accepted by acme's hub");
  say(
    `alice   ${`"${workspace.title}" (workspace) to everyone`.padEnd(36)} accepted by acme's hub, ${ws.recipients} recipient(s)`,
  );
  const marker = { title: "Marker: sent after every route", visibility: "public" };
  await alice.run({
    cmd: "send",
    type: "ocp.knowledge.stream",
    to: bob.id,
    payload: stream([], 7),
    nodes: [marker],
  });
  await bob.receives((m) => m.titles.includes(marker.title), "the marker sent after the routes");
  await carol.receives((m) => m.titles.includes(secret), "the team node (carol is in acme-eng)");
  await carol.receives((m) => m.titles.includes(workspace.title), "the workspace node");
  say(`carol   receives the team node and the workspace node (acme-eng, acme's own hub)`);
  check(!bob.titles().includes(secret), "bob never received the team node");
  check(!bob.titles().includes(workspace.title), "bob never received the workspace node");
  say(
    `bob     received the public marker sent after them, and neither of those (${bob.received.length} messages checked)`,
  );
  check(!storedIn(dir, orgs.globex, secret), "globex's SQLite files hold no byte of the team node");
  check(
    !storedIn(dir, orgs.globex, workspace.title),
    "globex's SQLite files hold no byte of the workspace node",
  );
  say("globex  its hub's SQLite files hold no byte of either (read as raw bytes)");
  const acmeLog = auditLog(orgs.acme);
  const towardGlobex = acmeLog.filter(
    (e) => e.event === "delivered" && sentIds.includes(e.id) && e.to.includes(orgs.globex.hubId),
  );
  check(
    towardGlobex.length === 0,
    "acme's audit log forwarded none of the team-node messages to globex",
  );
  const withheld = await until(
    () =>
      auditLog(orgs.acme, "refused").find(
        (e) => e.code === "federation_withheld" && e.id === ws.messageId && e.to.includes(bob.id),
      ),
    "acme's audit log records the workspace node withheld from bob",
  );
  say(
    `acme    its audit log: none of the ${sentIds.length} team-node messages forwarded to globex's hub (acme's`,
  );
  say(
    `        visibility rule already keeps them to acme-eng); the workspace one refused for bob by the crossing`,
  );
  say(`        rule: federation_withheld, "${withheld.reason}"`);
  const crossed = auditLog(orgs.globex, "accepted").filter(
    (e) => sentIds.includes(e.id) || e.id === ws.messageId,
  );
  check(crossed.length === 0, "globex's audit log accepted none of them");
  say("globex  its audit log: none of them arrived (0 accepted)\n");

  say("== 3. A federated collective query, answered from both organisations within its deadline");
  await carol.run({
    cmd: "answer",
    node: { title: "Acme: rotate keys with the vault CLI", visibility: "public" },
  });
  await bob.run({
    cmd: "answer",
    node: { title: "Globex: rotate keys with a sealed-secrets job", visibility: "public" },
  });
  const deadlineMs = 5000;
  // Broadcast (the hub passes it to the peer live, ocp.fed.query), then addressed to both by name (durable).
  for (const [form, to] of [
    ["everyone", "broadcast"],
    ["carol (acme) and bob (globex) by name", [carol.id, bob.id]],
  ]) {
    const queryId = `demo-query-${Date.now()}`;
    const asked = Date.now();
    const q = await alice.run({
      cmd: "send",
      type: "ocp.collective.query",
      to,
      payload: {
        queryId,
        query: "How do we rotate deploy keys?",
        timeout: deadlineMs,
        minResponses: 2,
      },
    });
    check(q.sent, `the query to ${form} is accepted (${q.code ?? ""})`);
    say(`alice   asks ${form}: "How do we rotate deploy keys?" (deadline ${deadlineMs} ms)`);
    const answers = await until(
      () => {
        const got = alice.received.filter(
          (m) => m.type === "ocp.collective.response" && m.queryId === queryId,
        );
        return new Set(got.map((m) => m.from)).size >= 2 && got;
      },
      `answers from both organisations to the query to ${form}`,
      deadlineMs,
    );
    const elapsed = Date.now() - asked;
    check(elapsed <= deadlineMs, "both answers within the deadline");
    for (const a of answers)
      say(`alice   answer from ${short(a.from).padEnd(12)} "${a.titles.join(", ")}"`);
    say(`        both organisations within ${elapsed} ms of the ${deadlineMs} ms deadline`);
  }
  say("");

  await restartMidStream(ctx, check);
}
