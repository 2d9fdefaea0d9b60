import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type ConformanceReport, runCgpHostConformance } from "../src/index.js";
import { cgpFencedSpans } from "../src/internal.js";
import { fixtureScript, statuses } from "./cgp-helpers.js";
import { evidenceOf, failed } from "./helpers.js";

let naive: ConformanceReport;
let careful: ConformanceReport;

beforeAll(async () => {
  const bad = fixtureScript("naive-cgp-host.mjs");
  const good = fixtureScript("careful-cgp-host.mjs");
  [naive, careful] = await Promise.all([
    runCgpHostConformance({ ...bad, name: "naive" }),
    runCgpHostConformance({ ...good, name: "careful" }),
  ]);
}, 180_000);

describe("runCgpHostConformance: CGP's host scenarios over the wire against a host command", () => {
  it("B2, B4, C1, C2, C6, F5 bytes, R3: a careful host passes every scenario", () => {
    expect(statuses(careful)).toEqual([
      "host-budget-drop:pass",
      "host-frame-limit:pass",
      "host-consent-gate:pass",
      "host-scope-receipt:pass",
      "host-provenance-bytes:pass",
      "host-content-quoting:pass",
    ]);
    expect(careful.conformant).toBe(true);
    expect(careful.family).toBe("contextgraph/1");
  });

  it("a host that trusts everything fails every scenario, each naming its rule", () => {
    expect(failed(naive)).toEqual([
      "host-budget-drop",
      "host-frame-limit",
      "host-consent-gate",
      "host-scope-receipt",
      "host-provenance-bytes",
      "host-content-quoting",
    ]);
    expect(evidenceOf(naive, "host-budget-drop")).toBe(
      "B2: frames summing over max_tokens reached the composed output",
    );
    expect(evidenceOf(naive, "host-frame-limit")).toMatch(
      /^B4: frames of a provider returning more than max_frames/,
    );
    expect(evidenceOf(naive, "host-consent-gate")).toMatch(
      /^C2: an egress provider without consent received 1 query payload\(s\); C1: frames of an unconsented egress provider were composed$/,
    );
    expect(evidenceOf(naive, "host-scope-receipt")).toMatch(
      /^C6: a provider declaring third-party-model without a receipt received 1 query payload/,
    );
    expect(evidenceOf(naive, "host-provenance-bytes")).toBe(
      "F5: a frame whose file digest does not match the re-read source bytes was composed unflagged",
    );
    expect(evidenceOf(naive, "host-content-quoting")).toBe(
      "R3: text after a forged fence close escaped its fence",
    );
    expect(naive.conformant).toBe(false);
  });

  it("a host command that cannot start fails every scenario as a value, never a throw", async () => {
    const report = await runCgpHostConformance({
      command: "/nonexistent/host",
      runTimeoutMs: 5_000,
    });
    expect(report.conformant).toBe(false);
    expect(failed(report)).toHaveLength(6);
  });

  it("R3: reads upstream's <frame> fence and @ocp/host's alike", () => {
    const upstream = '<frame cite="a">\nbody\n</frame>\n';
    expect(cgpFencedSpans(upstream).map((span) => upstream.slice(span.start, span.end))).toEqual([
      "body\n",
    ]);
    const ours = '<<<frame 1 cite="a">>>\nbody\n<<<end frame 1>>>\n';
    expect(cgpFencedSpans(ours).map((span) => ours.slice(span.start, span.end))).toEqual(["body"]);
  });
});

/** The repository's demo host (apps/demo-host), when it has been built. */
const DEMO_HOST = fileURLToPath(new URL("../../../apps/demo-host/dist/cli.js", import.meta.url));

describe.skipIf(!existsSync(DEMO_HOST))(
  "the demo host (apps/demo-host, built) over the wire",
  () => {
    const demo = (...extra: string[]) =>
      runCgpHostConformance({
        command: process.execPath,
        args: [DEMO_HOST, "--family", "contextgraph", ...extra, "conformance probe"],
        name: "ocp-demo-host",
      });

    it("B2, B4, C1, C2, C6, F5 bytes, R3: ocp-demo-host --family contextgraph --trust-root . passes every scenario; without a trusted root exactly F5 bytes fails", async () => {
      const [trusting, blind] = await Promise.all([demo("--trust-root", "."), demo()]);
      expect(failed(trusting)).toEqual([]);
      expect(trusting.conformant).toBe(true);
      expect(failed(blind)).toEqual(["host-provenance-bytes"]);
      expect(evidenceOf(blind, "host-provenance-bytes")).toBe(
        "F5: a frame whose file digest does not match the re-read source bytes was composed unflagged",
      );
    }, 240_000);
  },
);
