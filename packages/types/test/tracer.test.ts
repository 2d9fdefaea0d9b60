import { describe, expect, it } from "vitest";
import { resolveTracer } from "../src/internal.js";

/** A provider that records the names it was asked for. */
function provider(label: string) {
  const asked: string[] = [];
  const getTracer = (name: string) => {
    asked.push(name);
    return { label, name };
  };
  return { asked, getTracer };
}

describe("resolveTracer: one resolution of a package's tracing option", () => {
  it("is off (undefined) when tracing is absent or false, and never reads the global provider", () => {
    const global = provider("global");
    let reads = 0;
    const read = () => {
      reads += 1;
      return global;
    };
    expect(resolveTracer(undefined, read, "@ocp/x")).toBeUndefined();
    expect(resolveTracer(false, read, "@ocp/x")).toBeUndefined();
    expect(reads).toBe(0);
  });

  it("true: the tracer of the globally registered provider, named for the package", () => {
    const global = provider("global");
    expect(resolveTracer(true, () => global, "@ocp/host")).toEqual({
      label: "global",
      name: "@ocp/host",
    });
    expect(global.asked).toEqual(["@ocp/host"]);
  });

  it("{ tracerProvider }: that provider's tracer, the global one untouched", () => {
    const global = provider("global");
    const own = provider("own");
    const tracer = resolveTracer({ tracerProvider: own }, () => global, "@ocp/a2a-ocp-hub");
    expect(tracer).toEqual({ label: "own", name: "@ocp/a2a-ocp-hub" });
    expect(global.asked).toEqual([]);
  });
});
