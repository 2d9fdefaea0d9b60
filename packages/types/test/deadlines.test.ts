import { describe, expect, it } from "vitest";
import { Deadlines } from "../src/index.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Deadlines", () => {
  it("fires each deadline once, the earliest first even when added last; a cleared one never fires", async () => {
    const deadlines = new Deadlines({ holdsProcess: false });
    const fired: string[] = [];
    deadlines.add(80, () => fired.push("late"));
    const cleared = deadlines.add(40, () => fired.push("cleared"));
    deadlines.add(20, () => fired.push("early"));
    deadlines.clear(cleared);
    await wait(150);
    expect(fired).toEqual(["early", "late"]);
  });

  it("a deadline added from inside a firing one is kept", async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(10, () => {
      fired.push("first");
      deadlines.add(10, () => fired.push("second"));
    });
    await wait(100);
    expect(fired).toEqual(["first", "second"]);
  });
});
