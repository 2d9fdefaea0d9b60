/**
 * `ocp-test` against a cluster: three `ocp-hub --nats` processes on one
 * real nats-server (JetStream), the suite's agents spread over the three
 * hubs in turn (`--hub` repeated). Every deciding check passes. (The test
 * kit starts the hubs with `--no-rate-limits`, so the advisory rate-limits
 * check is expected to report what it sees; it does not decide.)
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

describe("ocp-test against three hubs over NATS", () => {
  it("every deciding check passes with the suite's agents spread over the hubs", async () => {
    const args = [CLI, "--json", ...cluster.hubs.flatMap((hub) => ["--hub", hub.url])];
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, args, { timeout: 480_000 }, (error, out) => {
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          stdout: out,
        });
      });
    });
    const report = JSON.parse(stdout) as CompatibilityReport;
    expect(report.target).toBe(`hub: ${cluster.hubs.map((hub) => hub.url).join(", ")}`);
    const decidingFailures = report.checks.filter((c) => c.status === "fail" && !c.advisory);
    expect(decidingFailures).toEqual([]);
    expect(report.checks.find((c) => c.name === "slow-consumer")?.status).toBe("pass");
    expect(report.checks.find((c) => c.name === "durable-delivery")?.status).toBe("pass");
    expect(code).toBe(0);
  }, 600_000);
});
