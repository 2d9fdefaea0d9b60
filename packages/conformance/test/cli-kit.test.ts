import { describe, expect, it } from "vitest";
import { splitFlag, timeoutArg } from "../src/cli-kit.js";

describe("the shared suite CLI helpers (ocp-inspect and ocp-test)", () => {
  it("splitFlag splits only a long flag at its first '='", () => {
    expect(splitFlag("--timeout=500")).toEqual(["--timeout", "500"]);
    expect(splitFlag("--query=a=b")).toEqual(["--query", "a=b"]);
    expect(splitFlag("--query=")).toEqual(["--query", ""]);
    expect(splitFlag("--json")).toEqual(["--json", undefined]);
    expect(splitFlag("-h=1")).toEqual(["-h=1", undefined]);
    expect(splitFlag("ws://h/?a=b")).toEqual(["ws://h/?a=b", undefined]);
  });

  it("timeoutArg takes a positive whole number of milliseconds and names the rule otherwise", () => {
    expect(timeoutArg("250")).toBe(250);
    for (const bad of [undefined, "", "0", "-5", "1.5", "1e3", " 5", "ten"]) {
      expect(timeoutArg(bad), String(bad)).toEqual({
        kind: "usage-error",
        message: "--timeout needs a positive number of milliseconds",
      });
    }
  });
});
