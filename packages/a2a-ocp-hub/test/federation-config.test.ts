/** Issue 44: the federate file is parsed with a schema; each mistake is `invalid_option` naming its field. */
import { describe, expect, it } from "vitest";
import { parseFederationConfig } from "../src/federation/config.js";

const KEY = Buffer.alloc(32, 7).toString("base64");
const peer = (over: Record<string, unknown> = {}) => ({
  hubId: "a2a://globex-hub",
  publicKey: KEY,
  agents: ["a2a://globex/"],
  url: "ws://127.0.0.1:8801",
  ...over,
});

function fieldOf(value: unknown): string | undefined {
  try {
    parseFederationConfig(value);
    return undefined;
  } catch (error) {
    expect((error as { code?: string }).code).toBe("invalid_option");
    return (error as { details?: { field?: string } }).details?.field;
  }
}

describe("the federate file", () => {
  it("takes a valid file; queries are off unless opted in", () => {
    const config = parseFederationConfig({ peers: [peer()] });
    expect(config.peers[0]!.queries).toBe(false);
  });

  it("names the field of each mistake", () => {
    expect(fieldOf({ peers: [peer({ publicKey: "short" })] })).toBe("peers.0.publicKey");
    expect(fieldOf({ peers: [peer({ url: "http://x" })] })).toBe("peers.0.url");
    expect(fieldOf({ peers: [peer({ agents: [] })] })).toBe("peers.0.agents");
    expect(fieldOf({ peers: [peer({ extra: 1 })] })).toBe("peers.0");
    expect(fieldOf({ peers: [] })).toBe("peers");
    expect(fieldOf({ listen: { port: 70_000 }, peers: [peer()] })).toBe("listen.port");
  });

  it("refuses a hub listed twice, overlapping prefixes, and a peer nobody can reach", () => {
    expect(fieldOf({ peers: [peer(), peer()] })).toBe("peers.1.hubId");
    const other = peer({ hubId: "a2a://initech-hub", agents: ["a2a://globex/team/"] });
    expect(fieldOf({ peers: [peer(), other] })).toBe("peers.1.agents");
    expect(fieldOf({ peers: [peer({ url: undefined })] })).toBe("peers.0.url");
    expect(fieldOf({ listen: { port: 0 }, peers: [peer({ url: undefined })] })).toBeUndefined();
  });
});
