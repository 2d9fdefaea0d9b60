import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));

describe("README", () => {
  it("shows examples/provider.mjs and examples/host.mjs verbatim, and exactly what they print", async () => {
    const readme = await readFile(`${root}/README.md`, "utf8");
    for (const name of ["provider.mjs", "host.mjs"]) {
      const source = await readFile(`${root}/examples/${name}`, "utf8");
      expect(readme).toContain(`\`\`\`js\n${source}\`\`\``);
    }
    const { stdout } = await run(process.execPath, ["examples/host.mjs"], {
      cwd: root,
      timeout: 20_000,
    });
    expect(readme).toContain(`prints:\n\n\`\`\`text\n${stdout}\`\`\``);
  });
});
