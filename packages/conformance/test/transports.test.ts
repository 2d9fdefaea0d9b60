import { createHttpProviderServer } from "@ocp/transport-http";
import { describe, expect, it } from "vitest";
import { createFixtureProvider, runConformance } from "../src/index.js";
import { evidenceOf, FAST, failed } from "./helpers.js";

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
});
