import { fileURLToPath } from "node:url";
import { createHttpProviderServer } from "@ocp/transport-http";
import { describe, expect, it } from "vitest";
import { createFixtureProvider, runConformance } from "../src/index.js";
import { evidenceOf, FAST, failed } from "./helpers.js";

const demo = fileURLToPath(new URL("./fixtures/served-demo.mjs", import.meta.url));
const docs = fileURLToPath(new URL("../../types/src", import.meta.url));

describe("providers served by our own transports", () => {
  it("a provider behind @ocp/transport-http's server is conformant over HTTP", async () => {
    const server = createHttpProviderServer(createFixtureProvider());
    const url = await server.listen();
    try {
      const report = await runConformance({ url }, FAST);
      expect(failed(report)).toEqual([]);
      expect(report.conformant).toBe(true);
      expect(evidenceOf(report, "version-mismatch")).toMatch(
        /named error \(incompatible_version\)/,
      );
    } finally {
      await server.close();
    }
  });

  it("a lying provider behind @ocp/transport-http's server is caught over HTTP (B1)", async () => {
    const server = createHttpProviderServer(createFixtureProvider("lying-costs"));
    const url = await server.listen();
    try {
      const report = await runConformance({ url }, FAST);
      expect(failed(report)).toEqual(["budget-honesty"]);
    } finally {
      await server.close();
    }
  });

  it("the demo provider served by serveStdio over packages/types/src is conformant over stdio, strict included", async () => {
    // It indexes before it answers the handshake: the default bounds, not the fast ones.
    const report = await runConformance(
      { command: process.execPath, args: [demo, docs] },
      { strict: true, goal: "decode an NDJSON line" },
    );
    expect(report.checks.filter((check) => check.status !== "pass")).toEqual([]);
    expect(report.probe?.frames.length).toBeGreaterThan(0);
    expect(report.conformant).toBe(true);
  });
});
