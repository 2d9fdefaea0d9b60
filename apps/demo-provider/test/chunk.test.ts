import { describe, expect, it } from "vitest";
import { chunkFile } from "../src/chunk.js";
import { MAX_SECTION_LINES, MAX_SYMBOL_LINES, SNIPPET_LINES } from "../src/limits.js";

describe("Markdown", () => {
  it("splits by heading into doc chunks titled by the heading, preamble titled by the file", () => {
    const text = "intro line\n\n# Install\nnpm i\n\n## Usage\nrun it\n";
    expect(chunkFile(text, "/r/guide.md", "guide.md")).toEqual([
      { kind: "doc", title: "guide.md", start: 1, end: 2 },
      { kind: "doc", title: "Install", start: 3, end: 5 },
      { kind: "doc", title: "Usage", start: 6, end: 7 },
    ]);
  });

  it("ignores heading-like lines inside code fences", () => {
    const text = "# Real\n```sh\n# not a heading\n```\ntext\n";
    expect(chunkFile(text, "/r/a.md", "a.md")).toEqual([
      { kind: "doc", title: "Real", start: 1, end: 5 },
    ]);
  });

  it(`splits a section longer than ${MAX_SECTION_LINES} lines into parts`, () => {
    const body = Array.from({ length: MAX_SECTION_LINES + 5 }, (_, i) => `line ${i}`).join("\n");
    const chunks = chunkFile(`# Long\n${body}\n`, "/r/a.md", "a.md");
    expect(chunks.map((c) => [c.title, c.start, c.end])).toEqual([
      ["Long", 1, MAX_SECTION_LINES],
      ["Long (part 2)", MAX_SECTION_LINES + 1, MAX_SECTION_LINES + 6],
    ]);
  });
});

describe("source", () => {
  it("makes symbol chunks at top-level declarations and snippets of what they leave", () => {
    const text = [
      'import x from "x";',
      "",
      "export function alpha() {",
      "  return 1;",
      "}",
      "",
      "class Beta {}",
    ].join("\n");
    expect(chunkFile(text, "/r/a.ts", "src/a.ts")).toEqual([
      { kind: "snippet", title: "src/a.ts L1-2", start: 1, end: 2 },
      { kind: "symbol", title: "alpha", start: 3, end: 5 },
      { kind: "symbol", title: "Beta", start: 7, end: 7 },
    ]);
  });

  it("recognises Rust, Python and Go declarations", () => {
    expect(chunkFile("pub fn retry() {}\n", "/r/a.rs", "a.rs")[0]?.title).toBe("retry");
    expect(chunkFile("def handler(x):\n  pass\n", "/r/a.py", "a.py")[0]?.title).toBe("handler");
    expect(chunkFile("func (s *S) Serve() {}\n", "/r/a.go", "a.go")[0]?.title).toBe("Serve");
  });

  it(`cuts a symbol at ${MAX_SYMBOL_LINES} lines and serves the rest as snippets`, () => {
    const body = Array.from({ length: MAX_SYMBOL_LINES + 10 }, () => "  x++;").join("\n");
    const chunks = chunkFile(`function big() {\n${body}\n}\n`, "/r/a.js", "a.js");
    expect(chunks[0]).toMatchObject({
      kind: "symbol",
      title: "big",
      start: 1,
      end: MAX_SYMBOL_LINES,
    });
    expect(chunks.slice(1).every((c) => c.kind === "snippet")).toBe(true);
    expect(chunks.at(-1)?.end).toBe(MAX_SYMBOL_LINES + 12);
  });

  it(`serves a file of an unknown language as ${SNIPPET_LINES}-line snippet windows`, () => {
    const text = Array.from({ length: SNIPPET_LINES + 1 }, (_, i) => `k${i}: v`).join("\n");
    expect(chunkFile(text, "/r/c.yaml", "c.yaml").map((c) => [c.kind, c.start, c.end])).toEqual([
      ["snippet", 1, SNIPPET_LINES],
      ["snippet", SNIPPET_LINES + 1, SNIPPET_LINES + 1],
    ]);
  });

  it("never produces a chunk of blank lines only", () => {
    expect(chunkFile("\n\n\n", "/r/a.txt", "a.txt")).toEqual([]);
    expect(chunkFile("\n\n\n", "/r/a.md", "a.md")).toEqual([]);
  });
});
