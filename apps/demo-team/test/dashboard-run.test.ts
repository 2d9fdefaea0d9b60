/**
 * `ocp-team-demo --dashboard` (issue 43): the loopback run opts in to
 * content display, so the dashboard shows the demo's own knowledge; Ctrl-C
 * in the middle of the run stops every child and removes the temporary
 * directory.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { get } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));

/** Resolves with the stdout so far once `pattern` appears in it (bounded). */
function waitFor(read: () => string, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = () => {
      const found = pattern.exec(read());
      if (found) return resolve(found);
      if (Date.now() > deadline) return reject(new Error(`timed out: ${what}\n${read()}`));
      setTimeout(poll, 50);
    };
    poll();
  });
}

const fetchText = (url: string) =>
  new Promise<string>((resolve, reject) => {
    get(url, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve(body));
    }).on("error", reject);
  });

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

it("with --dashboard, shows the demo's knowledge; Ctrl-C mid-run stops the hub and removes its files", async () => {
  const child = spawn(process.execPath, ["bin/team-demo.mjs", "--dashboard"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const [, hubPort, tmp] = await waitFor(
      () => out,
      /listening on ws:\/\/127\.0\.0\.1:(\d+)\/ \(SQLite in (\S+)\)/,
      "the hub",
    );
    const [, dashboard] = await waitFor(() => out, /dashboard\s+(http:\/\/\S+)/, "the dashboard");
    await waitFor(() => out, /bob {5}receives "WebSocket memory leak fix"/, "step 1");
    // The hub's dashboard hides workspace content by default; the demo's run shows it.
    let snapshot = "";
    for (let i = 0; i < 40 && !snapshot.includes("WebSocket memory leak fix"); i++) {
      snapshot = await fetchText(`${dashboard}snapshot.json`);
      if (!snapshot.includes("WebSocket memory leak fix")) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(snapshot).toContain("WebSocket memory leak fix");
    expect(snapshot).not.toContain('"hidden":true');

    expect(child.exitCode).toBeNull();
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(out).toContain("team demo interrupted");
    expect(existsSync(tmp!)).toBe(false);
    expect(await refused(Number(hubPort))).toBe(true);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}, 90_000);
