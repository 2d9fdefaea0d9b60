// What the benches that start servers share: a free loopback port, waiting
// for something to listen on one, and the CPU this process and a child have used.
import { readFileSync } from "node:fs";
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
