import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_SPECS, HOST_CHECK_SPECS } from "../src/internal.js";

const dir = new URL("./", import.meta.url);
const names = readdirSync(dir)
  .filter((file) => file.endsWith(".test.ts"))
  .flatMap((file) =>
    [
      ...readFileSync(new URL(file, dir), "utf8").matchAll(
        /\bit(?:\.each\([^)]*\))?\(\s*"([^"]+)"/g,
      ),
    ].map((match) => match[1]!),
  );

describe("requirement coverage", () => {
  // C3 (a provider SHOULD declare egress honestly) is advisory and not observable
  // from outside the provider: the host cannot rely on it (C4), and neither can we.
  const ids = [
    ...new Set([...CHECK_SPECS, ...HOST_CHECK_SPECS].flatMap((spec) => spec.requirements)),
  ];

  it.each(ids)("%s is verified by a check and cited by the name of at least one test", (id) => {
    expect(names.some((name) => new RegExp(`(^|[^A-Z-])${id}([^0-9]|$)`).test(name))).toBe(true);
  });
});
