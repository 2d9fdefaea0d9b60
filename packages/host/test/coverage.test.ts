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

  it("every contextgraph/1 host-side requirement is named by a test", async () => {
    const names = (await texts(here, ".test.ts"))
      .join("\n")
      .match(/\bit(?:\.skipIf\([^)]*\))?\(\s*"[^"]*"/g)!
      .join("\n");
    for (const id of [
      "H1",
      "H3",
      "C4",
      "C5",
      "C6",
      "C7",
      "C8",
      "E1",
      "P5",
      "B2",
      "B3",
      "B4",
      "D3",
    ]) {
      expect(names, `no test names ${id}`).toMatch(new RegExp(`\\b${id}\\b`));
    }
    for (const id of ["V1", "V2", "V3", "V4", "U2", "X1", "X2", "R3", "F4", "K1"]) {
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
