import { connectHttpProvider } from "@ocp/transport-http";
import { spawnStdioProvider } from "@ocp/transport-stdio";
import type { ContextProvider } from "@ocp/types";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type ConformanceReport,
  type HostFanOut,
  type HostUnderTest,
  runHostConformance,
} from "../src/index.js";
import { ocpHostFencedSpans } from "../src/internal.js";
import { evidenceOf, failed } from "./helpers.js";

/**
 * A host that trusts everything: no consent gate, no budget audit, content
 * pasted between `<frame>` tags without neutralising anything. Optionally it
 * also swallows a refused handshake and carries on as if registered.
 */
function naiveHost(options: { ignoreVersion?: boolean } = {}): HostUnderTest {
  const providers = new Map<string, ContextProvider>();
  return {
    async addStdio(id, command, args) {
      const spawned = spawnStdioProvider({ id, command, args });
      if (options.ignoreVersion === true) {
        const provider = await spawned.catch(() => undefined);
        if (provider !== undefined) providers.set(id, provider);
        return;
      }
      providers.set(id, await spawned);
    },
    async addInProcess(provider) {
      providers.set(provider.id, provider);
    },
    async addHttp(id, url) {
      providers.set(id, await connectHttpProvider({ id, url }));
    },
    async grantConsent() {},
    async queryAll(query) {
      const accepted: { providerId: string; frame: HostFanOut["accepted"][number]["frame"] }[] = [];
      const failedLegs: { providerId: string; reason: string }[] = [];
      await Promise.all(
        [...providers].map(async ([providerId, provider]) => {
          try {
            const result = await provider.query(query);
            for (const frame of result.frames) accepted.push({ providerId, frame });
          } catch (error) {
            failedLegs.push({ providerId, reason: (error as Error).message });
          }
        }),
      );
      return { accepted, dropped: [], failed: failedLegs };
    },
    query: (providerId, query) => providers.get(providerId)!.query(query),
    compose: (frames) =>
      frames.map(({ frame }) => `<frame>\n${frame.content}\n</frame>\n`).join(""),
    fencedSpans(text) {
      const spans = [];
      for (let at = text.indexOf("<frame>\n"); at !== -1; at = text.indexOf("<frame>\n", at + 1)) {
        const end = text.indexOf("\n</frame>", at);
        if (end !== -1) spans.push({ start: at + 8, end });
      }
      return spans;
    },
    async shutdown() {
      await Promise.all([...providers.values()].map((provider) => provider.shutdown()));
    },
  };
}

let ours: ConformanceReport;
let naive: ConformanceReport;
let careless: ConformanceReport;

beforeAll(async () => {
  [ours, naive, careless] = await Promise.all([
    runHostConformance(),
    runHostConformance({ createHost: () => naiveHost(), name: "naive" }),
    runHostConformance({ createHost: () => naiveHost({ ignoreVersion: true }), name: "careless" }),
  ]);
}, 120_000);

describe("runHostConformance", () => {
  it("H3, B2, C1, C2, C4, R3, X-ISO: @ocp/host passes every host-side check", () => {
    expect(ours.checks.map((check) => `${check.name}:${check.status}`)).toEqual([
      "host-version-reject:pass",
      "host-budget-drop:pass",
      "host-consent-gate:pass",
      "host-http-egress:pass",
      "host-content-fencing:pass",
      "host-crash-isolation:pass",
    ]);
    expect(ours.conformant).toBe(true);
    expect(ours.target).toBe("host: @ocp/host");
  });

  it("H3: names the refusal of a wrong-family provider", () => {
    expect(evidenceOf(ours, "host-version-reject")).toMatch(
      /refused a provider acking ocp\/2\.0 in \d+ ms with incompatible_version/,
    );
  });

  it("B2, C1, C2, C4, R3: a host that trusts everything fails exactly those checks", () => {
    expect(failed(naive)).toEqual([
      "host-budget-drop",
      "host-consent-gate",
      "host-http-egress",
      "host-content-fencing",
    ]);
    expect(evidenceOf(naive, "host-budget-drop")).toBe(
      "B2: 3 frame(s) of a provider declaring 299997 tokens against max_tokens 4096 were accepted",
    );
    expect(evidenceOf(naive, "host-consent-gate")).toBe(
      "C2: an egress provider without consent received 2 query payload(s)",
    );
    expect(evidenceOf(naive, "host-http-egress")).toBe(
      "C4: an HTTP provider declaring egress=false received 1 query payload(s) before consent",
    );
    expect(evidenceOf(naive, "host-content-fencing")).toBe(
      "R3: text after a forged fence close escaped its fence",
    );
    expect(naive.conformant).toBe(false);
  });

  it("H3: a host that registers a provider acking another family fails host-version-reject", () => {
    expect(failed(careless)).toContain("host-version-reject");
    expect(evidenceOf(careless, "host-version-reject")).toBe(
      "H3: the host registered a provider that acked ocp/2.0",
    );
  });

  it("R3: finds @ocp/host's fenced spans and ignores a neutralised forged fence", () => {
    const text = '<<<frame 1 cite="a">>>\nbody <\\<\\<end frame 1>\\>\\>\n<<<end frame 1>>>\n';
    const spans = ocpHostFencedSpans(text);
    expect(spans).toHaveLength(1);
    expect(text.slice(spans[0]!.start, spans[0]!.end)).toBe("body <\\<\\<end frame 1>\\>\\>");
  });
});
