import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { PROVIDER_CRASH_CODES } from "../src/internal.js";
import { fakeProvider, QUERY } from "./helpers.js";

/** The codes a transport's sources raise through its error factory (`stdioError("code", …)`). */
function raisedCodes(pkg: string, factory: string): Set<string> {
  const dir = new URL(`../../${pkg}/src/`, import.meta.url);
  const codes = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(new URL(file, dir), "utf8");
    for (const m of text.matchAll(new RegExp(`${factory}\\(\\s*"([a-z_]+)"`, "g"))) {
      codes.add(m[1] ?? "");
    }
  }
  return codes;
}

const NODE_ERRNOS = ["ECONNREFUSED", "ECONNRESET", "EPIPE"];

function quietHost(): Host {
  return new Host({ warn: () => {} });
}

describe("one table of crash codes", () => {
  it("lists only codes a transport raises (or Node's errno for a dropped socket or pipe)", () => {
    const raised = new Set([
      ...raisedCodes("transport-stdio", "stdioError"),
      ...raisedCodes("transport-http", "httpError"),
      ...NODE_ERRNOS,
    ]);
    const unraised = PROVIDER_CRASH_CODES.filter((code) => !raised.has(code));
    expect(unraised).toEqual([]);
  });

  it("a provider failing with a code nothing in the codebase raises (provider_exited) is a provider_error, not crashed", async () => {
    const host = quietHost();
    for (const [id, code] of [
      ["gone", "provider_crashed"],
      ["dropped", "ECONNRESET"],
      ["invented", "provider_exited"],
      ["invented-too", "stream_closed"],
    ] as const) {
      host.add(
        fakeProvider({
          id,
          answer: async () => {
            throw Object.assign(new Error(`${id} failed`), { code });
          },
        }),
      );
    }
    const result = await host.queryAll(QUERY);
    expect(Object.fromEntries(result.failures.map((f) => [f.providerId, f.reason]))).toEqual({
      gone: "crashed",
      dropped: "crashed",
      invented: "provider_error",
      "invented-too": "provider_error",
    });
  });
});
