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
      // The version-mismatch connection is plain: a named error, without our code.
      expect(evidenceOf(report, "version-mismatch")).toMatch(
        /named error \(no code\): this provider speaks ocp\/1\.0-draft/,
      );
    } finally {
      await server.close();
    }
  });

  it("a lying provider behind @ocp/transport-http's server, its guard off, is caught over HTTP (B1)", async () => {
    const server = createHttpProviderServer(createFixtureProvider("lying-costs"), { guard: "off" });
    const url = await server.listen();
    try {
      const report = await runConformance({ url }, FAST);
      expect(failed(report)).toEqual(["budget-honesty"]);
    } finally {
      await server.close();
    }
  });

  it("the same lying provider behind the server's default guard goes out fixed, conformant under --strict", async () => {
    const server = createHttpProviderServer(createFixtureProvider("lying-costs"), {
      log: () => {},
    });
    const url = await server.listen();
    try {
      const report = await runConformance({ url }, { ...FAST, strict: true });
      expect(failed(report)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
