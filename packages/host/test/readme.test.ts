import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));

describe("README", () => {
  it("shows examples/quickstart.mjs verbatim, and exactly the output it prints", async () => {
    const readme = await readFile(`${root}/README.md`, "utf8");
    const source = await readFile(`${root}/examples/quickstart.mjs`, "utf8");
    expect(readme).toContain(`\`\`\`js\n${source}\`\`\``);
    const { stdout } = await run(process.execPath, ["examples/quickstart.mjs"], {
      cwd: root,
      timeout: 20_000,
    });
    expect(readme).toContain(`Its output:\n\n\`\`\`text\n${stdout}\`\`\``);
  });
});
