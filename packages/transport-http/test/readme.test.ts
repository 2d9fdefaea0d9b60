import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));

describe("README", () => {
  it("shows examples/http.mjs verbatim, and exactly what it prints", async () => {
    const readme = await readFile(`${root}/README.md`, "utf8");
    const source = await readFile(`${root}/examples/http.mjs`, "utf8");
    expect(readme).toContain(`\`\`\`js\n${source}\`\`\``);
    const { stdout } = await run(process.execPath, ["examples/http.mjs"], {
      cwd: root,
      timeout: 20_000,
    });
    expect(readme).toContain(`prints:\n\n\`\`\`text\n${stdout}\`\`\``);
  });
});
