/**
 * `ocp-test` against a cluster: three `ocp-hub --nats` processes on one
 * real nats-server (JetStream). Once with every agent of the suite on one
 * hub of the cluster, once with the agents spread over the three hubs in
 * turn (`--hub` repeated), so that every message crosses NATS. (The test
 * kit starts the hubs with `--no-rate-limits`; the advisory rate-limits
 * check reports it and does not decide.)
 *
 * This suite found that with `--nats`, broadcasts carrying a private node
 * reached agents who may not see it (§8.5); the hub now resolves the
 * recipients of such a broadcast itself, and `visibility` passes here too.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { natsCluster } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompatibilityReport } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "..", "dist", "cli.js");
const hubPackage = createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json");
const cluster = natsCluster(join(dirname(hubPackage), "dist/cli.js"), "ocp-test-cluster");
beforeAll(() => cluster.start(), 120_000);
afterAll(() => cluster.stop(), 60_000);

function ocpTest(urls: string[]): Promise<{ code: number; report: CompatibilityReport }> {
  const args = [CLI, "--json", ...urls.flatMap((url) => ["--hub", url])];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 480_000 }, (error, stdout) => {
      try {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, report: JSON.parse(stdout) as CompatibilityReport });
      } catch (parseError) {
        reject(parseError);
      }
    });
  });
}

const decidingFailures = (report: CompatibilityReport) =>
  report.checks.filter((c) => c.status === "fail" && !c.advisory);

describe("ocp-test against three hubs over NATS", () => {
  it("every agent on one hub of the cluster: every deciding check passes", async () => {
    const single = await ocpTest([cluster.hubs[0]!.url]);
    expect(decidingFailures(single.report)).toEqual([]);
    // §8.3: the hubs of the cluster verify what they accept (issue 41 keeps the check on).
    expect(single.report.checks.find((c) => c.name === "signatures")?.status).toBe("pass");
    expect(single.report.checks.find((c) => c.name === "slow-consumer")?.status).toBe("pass");
  }, 600_000);

  it("agents spread over the three hubs: every deciding check passes", async () => {
    const spread = await ocpTest(cluster.hubs.map((hub) => hub.url));
    expect(spread.report.target).toBe(`hub: ${cluster.hubs.map((hub) => hub.url).join(", ")}`);
    expect(decidingFailures(spread.report)).toEqual([]);
    expect(spread.report.checks.find((c) => c.name === "signatures")?.status).toBe("pass");
    expect(spread.report.checks.find((c) => c.name === "durable-delivery")?.status).toBe("pass");
    expect(spread.report.checks.find((c) => c.name === "slow-consumer")?.status).toBe("pass");
  }, 600_000);
});
