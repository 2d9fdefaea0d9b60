// What the benches that start servers share: a free loopback port, waiting
// for something to listen on one, the CPU this process and a child have used,
// how long their threads waited for a core, and how idle the machine was.
import { readdirSync, readFileSync } from "node:fs";
import { createServer, Socket } from "node:net";

/** A TCP port free on 127.0.0.1 now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:`port`; rejects after 20 s. */
export async function waitForPort(port) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const s = new Socket();
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
      s.connect(port, "127.0.0.1");
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** CPU time of this process so far, ms (every thread, user and system). */
export function selfCpu() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** CPU time of a child process so far, ms (Linux /proc; 0 elsewhere). */
export function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * Time the threads of process `pid` have spent runnable but waiting for a
 * core so far, ms, summed over its threads (Linux: the second field of
 * /proc/PID/task/TID/schedstat; 0 elsewhere). A thread that ended takes its
 * share with it.
 */
export function runQueueWaitOf(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let ns = 0;
  for (const task of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[1]) || 0;
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ns / 1e6;
}

/**
 * The machine's idle and total CPU time so far, in clock ticks (Linux: the
 * first line of /proc/stat, idle counting iowait; zeros elsewhere).
 */
export function machineTicks() {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync(
      "/proc/stat",
      "utf8",
    )
      .split("\n", 1)[0]
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const total = user + nice + system + idle + iowait + irq + softirq + steal;
    return Number.isFinite(total) ? { idle: idle + iowait, total } : { idle: 0, total: 0 };
  } catch {
    return { idle: 0, total: 0 };
  }
}
