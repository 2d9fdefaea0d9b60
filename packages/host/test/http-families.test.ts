import { DUAL_OCP_COST, DUAL_TEXT, dualProvider } from "@ocp/testkit/dual";
import { createHttpProviderServer, type HttpProviderServer } from "@ocp/transport-http";
import { canonicalTokenCost } from "@ocp/types/cgp";
import { afterEach, describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { CGP_QUERY } from "./cgp-helpers.js";

const TEXT = DUAL_TEXT;
const OCP_COST = DUAL_OCP_COST;
const dual = () => dualProvider();

let server: HttpProviderServer | undefined;
const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.shutdown({ timeoutMs: 2_000 });
  await server?.close();
  server = undefined;
});

async function hostOn(url: string, family: "ocp/1" | "contextgraph/1"): Promise<Host> {
  const host = new Host({ warn: () => undefined, legTimeoutMs: 2_000 });
  hosts.push(host);
  const listing = await host.addHttp({ id: "shared", url, family });
  expect(listing.family).toBe(family);
  await host.grantConsent("shared", { grantedBy: "test" });
  return host;
}

describe("one HTTP provider address shared by hosts of both families", () => {
  it("each host's queries are answered in its own family, whichever handshake came last from the address", async () => {
    server = createHttpProviderServer(dual(), { log: () => undefined, onShutdown: "acknowledge" });
    const url = await server.listen({ host: "127.0.0.1", port: 0 });
    const ocp = await hostOn(url, "ocp/1");
    // The CGP host handshakes last: without the header every later request
    // from 127.0.0.1 would be taken for contextgraph/1.
    const cgp = await hostOn(url, "contextgraph/1");
    for (let round = 0; round < 2; round++) {
      const old = await ocp.queryAll(CGP_QUERY);
      expect(old.failures).toEqual([]);
      expect(old.accepted.map((a) => a.frame.token_cost)).toEqual([OCP_COST]);
      expect(old.accepted[0]?.frame).not.toHaveProperty("content_digest");

      const graph = await cgp.queryAll(CGP_QUERY);
      expect(graph.failures).toEqual([]);
      expect(graph.accepted.map((a) => a.frame.token_cost)).toEqual([canonicalTokenCost(TEXT)]);
    }
    // And the other way round: an ocp/1 handshake after the CGP host's does not turn it.
    await hostOn(url, "ocp/1");
    const again = await cgp.queryAll(CGP_QUERY);
    expect(again.failures).toEqual([]);
    expect(again.accepted.map((a) => a.frame.token_cost)).toEqual([canonicalTokenCost(TEXT)]);
  });
});
