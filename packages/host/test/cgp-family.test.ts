import { join } from "node:path";
import { isOcpError } from "@ocp/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { CGP_QUERY, cgpStdio, received, scratch, typesReceived } from "./cgp-helpers.js";

let host: Host | undefined;
let tmp: Awaited<ReturnType<typeof scratch>>;
beforeEach(async () => {
  tmp = await scratch();
});
afterEach(async () => {
  await host?.shutdown({ timeoutMs: 2_000 });
  host = undefined;
  await tmp.done();
});

function newHost(): Host {
  host = new Host({ warn: () => undefined, legTimeoutMs: 5_000 });
  return host;
}

describe("family negotiation with real stdio children", () => {
  it("H1: offers contextgraph/1.0-draft when the registration says so, and the session stays in that family", async () => {
    const h = newHost();
    const listing = await h.addStdio({
      ...cgpStdio("graph", tmp.record),
      family: "contextgraph/1",
    });
    expect(listing).toMatchObject({
      family: "contextgraph/1",
      protocolVersion: "contextgraph/1.0-draft",
    });
    expect(listing.refusedFamilies).toBeUndefined();
    const fanOut = await h.queryAll(CGP_QUERY);
    expect(fanOut.accepted.map((a) => a.frame.id)).toEqual(["a", "b"]);
    expect(fanOut.accepted[0]?.cgp?.content_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const [handshake, query] = await received(tmp.record);
    expect(handshake).toEqual({ type: "handshake", protocol_version: "contextgraph/1.0-draft" });
    expect(query?.type).toBe("query");
    // §3.2: no id to a provider that did not declare correlation.
    expect(query).not.toHaveProperty("id");
  });

  it("H4: a provider declaring correlation gets an id on every query and verify, and its echoed replies are matched", async () => {
    const h = newHost();
    await h.addStdio({
      ...cgpStdio("corr", tmp.record, ["--correlation", "--verify"]),
      family: "contextgraph/1",
    });
    const [first, second] = await Promise.all([h.queryAll(CGP_QUERY), h.queryAll(CGP_QUERY)]);
    expect(first.accepted).toHaveLength(2);
    expect(second.accepted).toHaveLength(2);
    expect((await h.verifyFrames(first.accepted)).retained).toHaveLength(2);
    const requests = (await received(tmp.record)).filter((e) => e.type !== "handshake");
    expect(requests.map((e) => e.type)).toEqual(["query", "query", "verify"]);
    const ids = requests.map((e) => e.id);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it("the default stays ocp/1.0-draft: a host given no family offers ocp/1 only", async () => {
    const h = newHost();
    const error = await h.addStdio(cgpStdio("graph", tmp.record)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "incompatible_version")).toBe(true);
    expect((await received(tmp.record)).map((e) => e.protocol_version)).toEqual(["ocp/1.0-draft"]);
    expect(h.list()).toEqual([]);
  });

  it("a provider refusing contextgraph/1 by code is handshaken again, afresh, in ocp/1 when the registration allows both", async () => {
    const h = newHost();
    const listing = await h.addStdio({
      ...cgpStdio("old", tmp.record, ["--accepts", "ocp"]),
      families: ["contextgraph/1", "ocp/1"],
    });
    expect(listing).toMatchObject({ family: "ocp/1", protocolVersion: "ocp/1.0-draft" });
    expect(listing.refusedFamilies).toEqual([
      expect.objectContaining({ family: "contextgraph/1", code: "incompatible_version" }),
    ]);
    const versions = (await received(tmp.record))
      .filter((e) => e.type === "handshake")
      .map((e) => e.protocol_version);
    expect(versions).toEqual(["contextgraph/1.0-draft", "ocp/1.0-draft"]);
    const fanOut = await h.queryAll(CGP_QUERY);
    expect(fanOut.accepted).toHaveLength(2);
    expect(fanOut.accepted[0]?.cgp).toBeUndefined();
  });

  it("an ocp/1-style refusal (a message naming the version, no code) also moves to the next family", async () => {
    const h = newHost();
    const listing = await h.addStdio({
      ...cgpStdio("old", tmp.record, ["--accepts", "ocp", "--plain-refusal"]),
      families: ["contextgraph/1", "ocp/1"],
    });
    expect(listing.family).toBe("ocp/1");
  });

  it("the reverse order works too: ocp/1 refused by a CGP-only provider, then contextgraph/1", async () => {
    const h = newHost();
    const listing = await h.addStdio({
      ...cgpStdio("graph", tmp.record),
      families: ["ocp/1", "contextgraph/1"],
    });
    expect(listing.family).toBe("contextgraph/1");
    expect(listing.refusedFamilies?.map((r) => r.family)).toEqual(["ocp/1"]);
  });

  it("H3: refused in every family offered, the registration fails with incompatible_version naming each refusal", async () => {
    const h = newHost();
    const error = await h
      .addStdio({
        ...cgpStdio("alien", tmp.record, ["--accepts", "none"]),
        families: ["contextgraph/1", "ocp/1"],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isOcpError(error, "incompatible_version")).toBe(true);
    expect(
      (error as { details: { refusedFamilies: { family: string }[] } }).details.refusedFamilies,
    ).toEqual([
      expect.objectContaining({ family: "contextgraph/1", code: "incompatible_version" }),
    ]);
    expect(h.list()).toEqual([]);
    expect(await typesReceived(tmp.record)).toEqual(["handshake", "handshake"]);
  });

  it("refuses bad family options before spawning anything", async () => {
    const h = newHost();
    for (const bad of [
      { family: "contextgraph/1" as const, families: ["ocp/1" as const] },
      { families: [] },
      { families: ["ocp/1" as const, "ocp/1" as const] },
      { families: ["mcp/1" as never] },
    ]) {
      const error = await h.addStdio({ ...cgpStdio("x", tmp.record), ...bad }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isOcpError(error, "invalid_option")).toBe(true);
    }
    expect(await received(tmp.record)).toEqual([]);
  });

  it("C5: a provider declaring an off-machine egress scope with egress: false is refused at the handshake, and never queried", async () => {
    const h = newHost();
    const error = await h
      .addStdio({
        ...cgpStdio("liar", tmp.record, ["--scopes", "third-party-model"]),
        family: "contextgraph/1",
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isOcpError(error, "egress_scope_inconsistent")).toBe(true);
    expect((error as Error).message).toContain("third-party-model");
    expect(h.list()).toEqual([]);
    expect(await typesReceived(tmp.record)).not.toContain("query");
    // U3: a custom scope must be namespaced, egress or not.
    const bare = await h
      .addStdio({
        ...cgpStdio("bare", `${tmp.record}.bare`, ["--egress", "--scopes", "cloud"]),
        family: "contextgraph/1",
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isOcpError(bare, "egress_scope_inconsistent")).toBe(true);
    expect((bare as Error).message).toContain("U3");
  });

  it("X1, X2: an unknown or absent error code reads as internal, never as something retryable", async () => {
    const h = newHost();
    await h.addStdio({
      ...cgpStdio("odd", tmp.record, ["--mode", "error:acme:weird"]),
      family: "contextgraph/1",
    });
    const odd = await h.queryProvider("odd", CGP_QUERY).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(odd).toMatchObject({
      code: "provider_error",
      details: { code: "internal", wireCode: "acme:weird" },
    });
    const record = join(tmp.dir, "mute.ndjson");
    await h.addStdio({
      ...cgpStdio("mute", record, ["--mode", "error-no-code"]),
      family: "contextgraph/1",
    });
    const fanOut = await h.queryAll(CGP_QUERY);
    const mute = fanOut.failures.find((f) => f.providerId === "mute");
    expect(mute?.reason).toBe("provider_error");
    expect(mute?.error.details).toMatchObject({ code: "internal" });
    expect(mute?.error.details).not.toHaveProperty("wireCode");
  });
});
