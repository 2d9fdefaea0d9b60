import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The root README promises that `npm run demo:team` works on a machine with
 * Node and npm only. These run the root script as a user does, with a PATH
 * that holds every program of this machine except pnpm.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const bin = mkdtempSync(join(tmpdir(), "ocp-no-pnpm-"));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** `bin` gets a link to every program on PATH but pnpm and pnpx (first one of a name wins). */
for (const dir of (process.env.PATH ?? "").split(delimiter)) {
  if (dir === "" || !existsSync(dir) || dir.includes("node_modules")) continue;
  for (const name of readdirSync(dir)) {
    if (/^pnp(m|x)/.test(name) || existsSync(join(bin, name))) continue;
    symlinkSync(join(dir, name), join(bin, name));
  }
}

/** The environment of a user's shell: no pnpm, npm or turbo variables from the test runner. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: bin };
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_|pnpm_|turbo_|PATH$|NODE_PATH$|VITEST|INIT_CWD$)/i.test(key)) env[key] = value;
  return env;
}

describe("root scripts without pnpm on PATH", () => {
  it("the PATH of these tests finds node, npm and npx but no pnpm", () => {
    const which = (program: string) =>
      spawnSync("sh", ["-c", `command -v ${program}`], { env: userEnv(), encoding: "utf8" });
    expect(which("pnpm").status).not.toBe(0);
    for (const program of ["node", "npm", "npx"]) expect(which(program).status).toBe(0);
  });

  it("`npm run demo:team -- --help` builds what the demo needs and prints its usage, exit 0", () => {
    const run = spawnSync("npm", ["run", "demo:team", "--", "--help"], {
      cwd: root,
      env: userEnv(),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 240_000, // npx may fetch pnpm from the registry first
    });
    expect(run.stderr).not.toContain("Unable to find package manager binary");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: ocp-team-demo [--dashboard]");
    expect(run.stdout).toContain("-v, --version");
  }, 250_000);
});
