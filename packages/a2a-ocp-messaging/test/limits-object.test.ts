import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import * as internal from "../src/internal.js";
import * as limits from "../src/limits.js";

const dir = fileURLToPath(new URL("..", import.meta.url));

describe("LIMITS: every limit of the message layer as one object from the root entry", () => {
  it("holds every constant of src/limits.ts with its value, and nothing else", () => {
    expect({ ...root.LIMITS }).toEqual({ ...limits });
    expect(root.LIMITS.MAX_MESSAGE_BYTES).toBe(1024 * 1024);
  });

  it("cannot be changed in Node: assigning or adding a member throws, the value stays (dist)", () => {
    const script = [
      'import { LIMITS } from "@ocp/a2a-ocp-messaging";',
      "const tries = [() => { LIMITS.MAX_MESSAGE_BYTES = 1; }, () => { LIMITS.MAX_NEW_LIMIT = 1; }];",
      "const thrown = tries.map((f) => { try { f(); return 'no'; } catch (e) { return e.constructor.name; } });",
      "console.log(JSON.stringify({ thrown, extensible: Object.isExtensible(LIMITS), value: LIMITS.MAX_MESSAGE_BYTES }));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({
      thrown: ["TypeError", "TypeError"],
      extensible: false,
      value: limits.MAX_MESSAGE_BYTES,
    });
  });

  it("the loose constants are not root exports; ./internal still has them for sibling packages", () => {
    expect(Object.keys(root)).not.toContain("MAX_MESSAGE_BYTES");
    expect(Object.keys(root)).not.toContain("MAX_TTL_SECONDS");
    expect(internal.MAX_TTL_SECONDS).toBe(limits.MAX_TTL_SECONDS);
    expect(internal.HUB_TYPES).toBeDefined();
    expect(Object.keys(root)).not.toContain("HUB_TYPES");
  });
});
