import { describe, expect, expectTypeOf, it } from "vitest";
import { errorFactory, foreignError, isOcpError, OcpError, wireError } from "../src/index.js";

type DemoCode = "store_failed" | "hub_timeout";
const demoError = errorFactory<DemoCode>();

describe("typed error codes", () => {
  it("a package's factory raises OcpErrors with its codes, typed by its union", () => {
    const error = demoError("store_failed", "the commit failed", { details: { id: "m1" } });
    expectTypeOf(error).toEqualTypeOf<OcpError<"store_failed">>();
    expect(error).toBeInstanceOf(OcpError);
    expect(isOcpError(error, "store_failed")).toBe(true);
    expect(error.details).toEqual({ id: "m1" });
    expect(wireError("unavailable", "rebuilding").code).toBe("unavailable");
    // A code another party chose (a hub's reject read from the wire) is typed string, by name.
    const foreign = foreignError("a_future_code", "refused by the hub");
    expectTypeOf(foreign).toEqualTypeOf<OcpError<string>>();
    expect(foreign.code).toBe("a_future_code");
  });

  it("a code outside the union, or a raw literal without one, does not compile", () => {
    const raised = [
      // @ts-expect-error not a code of the package
      () => demoError("no_such_code", "x"),
      // @ts-expect-error OcpError without its code union takes no raw literal
      () => new OcpError("no_such_code", "x"),
      // @ts-expect-error not a wire code
      () => wireError("store_failed", "x"),
    ].map((raise) => raise().code);
    // At run time nothing checks: the compiler is the guard.
    expect(raised).toEqual(["no_such_code", "no_such_code", "store_failed"]);
    // Naming the union is the explicit way past the factory.
    expect(new OcpError<DemoCode>("hub_timeout", "x").code).toBe("hub_timeout");
  });
});
