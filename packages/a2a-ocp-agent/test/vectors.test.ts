import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pageChecksum, verifyPage } from "../src/internal.js";

// examples/a2a-ocp/vectors/checksum.json, written from docs/a2a-ocp-wire.md by a generator that
// shares no code with the runtime.
const v = JSON.parse(
  readFileSync(new URL("../../../examples/a2a-ocp/vectors/checksum.json", import.meta.url), "utf8"),
);

describe("sync page checksum vector", () => {
  it("the runtime computes the vector's checksum and accepts the page; one changed weight is caught", () => {
    expect(pageChecksum(v.nodes, v.edges)).toBe(v.checksum);
    const page = { syncId: "s", nodes: v.nodes, edges: v.edges, checksum: v.checksum };
    expect(verifyPage(page as never)).toBe(true);
    const edges = structuredClone(v.edges);
    edges[0].weight = 0.7500001;
    expect(verifyPage({ ...page, edges } as never)).toBe(false);
  });
});
