import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hubError } from "../src/errors.js";

const src = fileURLToPath(new URL("../src", import.meta.url));

describe("typed error codes", () => {
  it("hubError takes only this package's codes: an unknown code does not compile", () => {
    expect(hubError("store_failed", "x").code).toBe("store_failed");
    // @ts-expect-error not a code of this package
    expect(hubError("no_such_code", "x").code).toBe("no_such_code");
  });

  it("no source raises an OcpError without the package's typed factory", () => {
    const raw: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts") && /new OcpError\b/.test(readFileSync(path, "utf8")))
          raw.push(entry.name);
      }
    };
    walk(src);
    expect(raw).toEqual([]);
  });
});
