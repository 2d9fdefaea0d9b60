import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// `@ocp/a2a-ocp-messaging/observe` is the one definition of what a hub shows its observers,
// shared by the hub and the dashboard it loads as a plug-in: types only, so that importing it
// costs neither side anything at run time.
describe("@ocp/a2a-ocp-messaging/observe", () => {
  it("is types only: the built entry exports nothing at run time and imports nothing", async () => {
    const entry = await import("@ocp/a2a-ocp-messaging/observe");
    expect(Object.keys(entry)).toEqual([]);
    const built = readFileSync(new URL("../dist/observe.js", import.meta.url), "utf8");
    const code = built.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    expect(code.trim()).toBe("export {};");
  });

  it("declares its source with type and interface declarations only", () => {
    const source = readFileSync(new URL("../src/observe.ts", import.meta.url), "utf8");
    const declarations = source.match(/^export \w+/gm) ?? [];
    expect(declarations.length).toBeGreaterThan(10);
    expect(new Set(declarations)).toEqual(new Set(["export interface", "export type"]));
    expect(source).not.toMatch(/^import /m);
  });
});
