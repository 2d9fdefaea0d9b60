import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { Deadlines } from "../src/internal.js";

const built = new URL("../dist/internal.js", import.meta.url).href;

/** Runs `body` in a fresh Node process with `Deadlines` (built) in scope; its stdout lines and how long it lived. */
function inProcess(body: string): Promise<{ lines: string[]; ms: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", `import { Deadlines } from ${JSON.stringify(built)};\n${body}`],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`exited with ${code}`));
      else resolve({ lines: out.split("\n").filter(Boolean), ms: performance.now() - started });
    });
  });
}

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

  it("a pending deadline holds the process until it fires; one cleared lets it exit at once, the armed timer left behind", async () => {
    const held = await inProcess(`
      const deadlines = new Deadlines();
      deadlines.add(400, () => console.log("fired"));`);
    expect(held.lines).toEqual(["fired"]);
    expect(held.ms).toBeGreaterThanOrEqual(400);
    // Cleared after one request after another: the timer stays armed 60 s out, the process still exits.
    const idle = await inProcess(`
      const deadlines = new Deadlines();
      for (let i = 0; i < 3; i++) deadlines.clear(deadlines.add(60_000, () => console.log("late")));
      await new Promise((resolve) => setTimeout(resolve, 20));
      console.log("idle");`);
    expect(idle.lines).toEqual(["idle"]);
    expect(idle.ms).toBeLessThan(30_000);
  }, 40_000);

  it("holds the process again when a deadline is added after it went idle, and fires it on time", async () => {
    // Later than the idle timer (armed at 100 ms, not holding): the same timer holds again.
    const later = await inProcess(`
      const deadlines = new Deadlines();
      deadlines.clear(deadlines.add(100, () => console.log("cleared")));
      const at = performance.now();
      deadlines.add(300, () => console.log("late", performance.now() - at >= 299));`);
    expect(later.lines).toEqual(["late true"]);
    // Earlier than the idle timer (60 s out): re-armed; a later one is swept with it.
    const earlier = await inProcess(`
      const deadlines = new Deadlines();
      deadlines.clear(deadlines.add(60_000, () => console.log("cleared")));
      const at = performance.now();
      deadlines.add(200, () => console.log("early", performance.now() - at >= 199));
      deadlines.add(300, () => console.log("late", performance.now() - at >= 299));`);
    expect(earlier.lines).toEqual(["early true", "late true"]);
  });

  it("an idle timer left armed fires into an empty sweep; a deadline added after still fires", async () => {
    const deadlines = new Deadlines({ holdsProcess: false });
    const fired: string[] = [];
    deadlines.clear(deadlines.add(20, () => fired.push("cleared")));
    await wait(60);
    deadlines.add(20, () => fired.push("after"));
    await wait(80);
    expect(fired).toEqual(["after"]);
  });
});
