import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = fileURLToPath(new URL(".", import.meta.url));
const src = fileURLToPath(new URL("../src/", import.meta.url));

async function texts(dir: string, suffix: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(suffix));
  return Promise.all(names.map((name) => readFile(`${dir}/${name}`, "utf8")));
}

describe("coverage and layering", () => {
  it("every host-side requirement (C1, C2, C4, B1, B2, F1-F3, H2, H3, R3) and extension (K1, M1, T1) is named by a test", async () => {
    const names = (await texts(here, ".test.ts"))
      .join("\n")
      .match(/\bit\(\s*"[^"]*"/g)!
      .join("\n");
    for (const id of [
      "C1",
      "C2",
      "C4",
      "B1",
      "B2",
      "F1",
      "F2",
      "F3",
      "H2",
      "H3",
      "R3",
      "K1",
      "M1",
      "T1",
    ]) {
      expect(names, `no test names ${id}`).toMatch(new RegExp(`\\b${id}\\b`));
    }
  });

  it("the host does no wire framing: no NDJSON codec, no sockets, no child processes in src", async () => {
    for (const text of await texts(src, ".ts")) {
      expect(text).not.toMatch(/\b(encodeLine|decodeLine|LineSplitter)\b/);
      expect(text).not.toMatch(/from "node:(net|http|https|child_process)"/);
    }
  });
});
