import { describe, expect, it } from "vitest";
import { cgpRemoteError, checkCgpAck } from "../src/cgp/index.js";
import { foreignError } from "../src/index.js";

const makeError = foreignError;

const ack = (protocolVersion: string) => ({
  type: "handshake_ack",
  protocol_version: protocolVersion,
  provider: {
    name: "p",
    version: "1",
    data_flow: { reads: true, writes: false, egress: false },
  },
  capabilities: { query: { kinds: [] }, representations: ["full"], resolve: false },
});

describe("checkCgpAck: the handshake verdict both host transports share", () => {
  it("H1: an ack of contextgraph/1 is accepted as the decoded ack", () => {
    const verdict = checkCgpAck(ack("contextgraph/1.2"), "p1", makeError);
    expect(verdict.ok && verdict.ack.protocol_version).toBe("contextgraph/1.2");
  });

  it("H3: an ack in the other family is incompatible_version with both versions named", () => {
    const verdict = checkCgpAck(ack("ocp/1.0-draft"), "p1", makeError);
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.error.code).toBe("incompatible_version");
    expect(verdict.error.details).toEqual({
      ours: "contextgraph/1.0-draft",
      theirs: "ocp/1.0-draft",
    });
    expect(verdict.error.message).toContain('provider "p1"');
  });

  it("a reply that is not an envelope is malformed_reply with the decoder's reason", () => {
    for (const reply of [null, "ack", 7, { type: "handshake_ack" }]) {
      const verdict = checkCgpAck(reply, "p1", makeError);
      expect(verdict.ok ? "accepted" : verdict.error.code, JSON.stringify(reply)).toBe(
        "malformed_reply",
      );
    }
  });

  it("a well-formed envelope that is not an ack (frames) is malformed_reply naming its type", () => {
    const verdict = checkCgpAck(
      { type: "frames", id: "q1", result: { frames: [], truncated: false } },
      "p1",
      makeError,
    );
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.error.code).toBe("malformed_reply");
  });

  it("an error envelope answering the handshake becomes the remote error, incompatible_version kept", () => {
    const refused = checkCgpAck(
      { type: "error", code: "incompatible_version", message: "no" },
      "p1",
      makeError,
    );
    expect(refused.ok ? "accepted" : refused.error.code).toBe("incompatible_version");
    const failed = checkCgpAck({ type: "error", code: "busy", message: "later" }, "p1", makeError);
    expect(failed.ok ? "accepted" : failed.error.code).toBe("provider_error");
  });
});

describe("cgpRemoteError: X1/X2 on the host side", () => {
  it("an unknown wire code reads as internal; the code sent is kept as wireCode", () => {
    const error = cgpRemoteError({ code: "made_up", message: "m" }, "p1", makeError);
    expect(error.code).toBe("provider_error");
    expect(error.details).toEqual({ code: "internal", wireCode: "made_up", message: "m" });
  });

  it("an absent code reads as internal with no wireCode", () => {
    const error = cgpRemoteError({ message: "m" }, "p1", makeError);
    expect(error.details).toEqual({ code: "internal", message: "m" });
  });

  it("a known code is the code a host acts on", () => {
    const error = cgpRemoteError({ code: "unavailable", message: "m" }, "p1", makeError);
    expect(error.details?.["code"]).toBe("unavailable");
  });
});
