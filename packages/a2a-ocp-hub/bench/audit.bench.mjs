// pnpm bench (hub): what the §3 audit log costs. Messages/s of signed direct
// (durable) messages from one agent to another through a hub, with no audit
// log (baseline) and with a SqliteAuditLog in the hub's file (an `accepted`
// and a `delivered` entry per message), arms interleaved over rounds in one
// process; prints each arm's median, spread (min–max) and the ratio of medians.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { HubClient } from "@ocp/a2a-ocp-client";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { OCPHub, SqliteAuditLog } from "../dist/index.js";
import { waitFor } from "./wait.mjs";

const MESSAGES = Number(process.env.BENCH_AUDIT_MESSAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 7);
const dir = mkdtempSync(join(tmpdir(), "ocp-hub-audit-bench-"));

let run = 0;
async function once(withAudit) {
  run += 1;
  const dbPath = join(dir, `hub-${run}.sqlite`);
  const hub = await OCPHub.start({
    dbPath,
    rateLimits: false,
    onError: () => {},
    ...(withAudit ? { audit: new SqliteAuditLog({ path: dbPath }) } : {}),
  });
  const sender = await HubClient.connect({
    url: hub.url,
    identity: generateIdentity(`a2a://s-${run}`),
  });
  const receiver = new HubClient({ url: hub.url, identity: generateIdentity(`a2a://r-${run}`) });
  let received = 0;
  receiver.on("message", () => {
    received += 1;
  });
  await receiver.connect();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: MESSAGES }, (_, i) =>
      sender.send({
        type: "ocp.custom.bench",
        to: receiver.identity.id,
        payload: { i, text: "x".repeat(200) },
      }),
    ),
  );
  await waitFor(() => received === MESSAGES, 1);
  const seconds = (performance.now() - start) / 1000;
  if (withAudit) {
    const entries = await hub.options.audit.query({ limit: 10_000 });
    if (entries.length < 2 * MESSAGES) throw new Error(`audit has ${entries.length} entries`);
  }
  await Promise.all([sender.close(), receiver.close()]);
  await hub.close();
  return MESSAGES / seconds;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n) => Math.round(n).toLocaleString("en-US");

try {
  await once(false); // warm-up, not counted
  await once(true);
  const arms = { baseline: [], audit: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, the order alternating per round.
    const order = round % 2 === 0 ? ["baseline", "audit"] : ["audit", "baseline"];
    for (const arm of order) arms[arm].push(await once(arm === "audit"));
  }
  console.log(
    `audit log: ${MESSAGES} durable messages per run, ${ROUNDS} interleaved rounds (load ${loadavg()[0].toFixed(2)})`,
  );
  for (const [arm, xs] of Object.entries(arms)) {
    console.log(
      `  ${arm.padEnd(9)} median ${fmt(median(xs))} msg/s  spread ${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`,
    );
  }
  console.log(
    `  audit / baseline (medians): ${(median(arms.audit) / median(arms.baseline)).toFixed(3)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
