import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { isOcpError } from "@ocp/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AClient } from "../src/index.js";

/** A real HTTP server whose well-known card path answers `bodies[path prefix]` as JSON text. */
let server: Server;
let base: string;
const bodies = new Map<string, string>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const prefix = (request.url ?? "").split("/")[1] ?? "";
    const body = bodies.get(prefix);
    if (body === undefined || request.url !== `/${prefix}/${AGENT_CARD_PATH}`) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("createA2AClient reads the agent card as a JSON object", () => {
  it.each([
    ["null", "null"],
    ["an array", "[1,2]"],
    ["a string", '"a2a://someone"'],
    ["a number", "42"],
  ])("refuses a card that is %s as card_unavailable, not a crash", async (name, body) => {
    const prefix = name.replaceAll(" ", "-");
    bodies.set(prefix, body);
    const error = await createA2AClient(`${base}/${prefix}`, { anonymous: true }).catch(
      (caught: unknown) => caught,
    );
    expect(isOcpError(error, "card_unavailable")).toBe(true);
    expect((error as Error).message).toContain("the card is not a JSON object");
  });

  it("builds a client from a card that is a JSON object", async () => {
    bodies.set(
      "object",
      JSON.stringify({
        name: "someone",
        supportedInterfaces: [
          { url: `${base}/object`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        ],
      }),
    );
    const client = await createA2AClient(`${base}/object`, { anonymous: true });
    expect(typeof client.sendMessage).toBe("function");
  });
});
