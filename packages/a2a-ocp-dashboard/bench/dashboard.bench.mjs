// pnpm bench (dashboard): what an open dashboard costs the hub's forwarding
// path. Deliveries/s of signed awareness beacons broadcast through a hub to
// 10 raw subscribers, without a dashboard and with one (observing the hub,
// with a page's event stream open), alternating, in the same process and
// run. Reported, not asserted: the machine may be loaded.
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import {
  createAgentProfile,
  createMessage,
  generateIdentity,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { WebSocket } from "ws";
import { startDashboard } from "../dist/index.js";

const SUBSCRIBERS = 10;
const MESSAGES = Number(process.env.BENCH_DASHBOARD_MESSAGES ?? 1000);
const ROUNDS = 3;

/** A registered raw agent counting the frames it receives. */
function rawAgent(url, name) {
  const id = generateIdentity(`a2a://${name}`);
  const profile = createAgentProfile(id, {}, nativeEd25519);
  const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
  const agent = { id, ws, received: 0 };
  return new Promise((resolve, reject) => {
    let registered = false;
    ws.on("error", reject);
    ws.on("message", (data) => {
      if (registered) {
        agent.received += 1;
        return;
      }
      const frame = JSON.parse(data.toString());
      if (frame.type === "ocp.connection.ack") {
        ws.send(buildAnnouncement(id, profile, frame.payload.nonce, undefined, nativeEd25519));
      } else if (frame.type === "ocp.connection.registered") {
        registered = true;
        resolve(agent);
      }
    });
  });
}

function openStream(url) {
  return new Promise((resolve) => {
    const req = request(`${url}events`, (res) => {
      res.on("data", () => {});
      resolve(() => req.destroy());
    });
    req.end();
  });
}

async function run(withDashboard) {
  const dir = mkdtempSync(join(tmpdir(), "ocp-dashboard-bench-"));
  const hub = await OCPHub.start({
    dbPath: join(dir, "hub.sqlite"),
    rateLimits: false,
    onError: () => {},
  });
  const dashboard = withDashboard ? await startDashboard(hub) : undefined;
  const closeStream = dashboard ? await openStream(dashboard.url) : () => {};
  const publisher = await rawAgent(hub.url, "bench-publisher");
  const subscribers = await Promise.all(
    Array.from({ length: SUBSCRIBERS }, (_, i) => rawAgent(hub.url, `bench-${i}`)),
  );
  const messages = Array.from({ length: MESSAGES }, (_, i) =>
    JSON.stringify(
      signObject(
        createMessage({
          type: "ocp.awareness.beacon",
          from: publisher.id.id,
          to: "broadcast",
          payload: {
            status: i % 2 === 0 ? "working" : "blocked",
            availability: "available",
            currentContext: { task: `task ${i}`, blockedOn: "a review" },
          },
        }),
        publisher.id.secretKey,
        nativeEd25519,
      ),
    ),
  );
  const expected = MESSAGES * SUBSCRIBERS;
  const started = process.hrtime.bigint();
  for (const message of messages) publisher.ws.send(message);
  await new Promise((resolve) => {
    const check = () =>
      subscribers.reduce((n, s) => n + s.received, 0) >= expected
        ? resolve()
        : setTimeout(check, 5);
    check();
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const agent of [publisher, ...subscribers]) agent.ws.close();
  closeStream();
  await dashboard?.close();
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
  return expected / seconds;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = { without: [], with: [] };
await run(false); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  results.without.push(await run(false));
  results.with.push(await run(true));
}
const [without, withDashboard] = [median(results.without), median(results.with)];
const load = loadavg()
  .map((n) => n.toFixed(2))
  .join(" ");
console.log(`dashboard bench — node ${process.version}, load average ${load}`);
console.log(
  `${SUBSCRIBERS} subscribers, ${MESSAGES} beacons, median of ${ROUNDS} alternating runs:`,
);
console.log(`  hub without a dashboard          ${Math.round(without)} deliveries/s`);
console.log(
  `  hub with a dashboard, page open  ${Math.round(withDashboard)} deliveries/s  ${(withDashboard / without).toFixed(2)}x`,
);
