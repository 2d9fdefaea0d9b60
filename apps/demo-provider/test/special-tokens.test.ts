/**
 * Issue 43: text is text. A tree whose files spell every special token
 * gpt-tokenizer knows (`<|endoftext|>`, `<|im_start|>`, …) is indexed and
 * queried by the real provider process, and its token costs are those of the
 * shared counter (`@ocp/types/tokens`) the host audits them with.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type StdioProvider, spawnStdioProvider } from "@ocp/transport-stdio";
import { countTokens as sharedCount } from "@ocp/types/tokens";
import * as special from "gpt-tokenizer/specialTokens";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "../src/index.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const spellings = Object.values(special) as string[];
let dir: string;
let provider: StdioProvider;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-special-"));
  mkdirSync(join(dir, "docs"));
  writeFileSync(
    join(dir, "docs", "tokenizer.md"),
    [
      "# Tokenizer notes",
      "",
      "## Special tokens",
      "",
      "The chat template frames each turn with markers such as",
      ...spellings.map((s) => `- ${s} marks a boundary of the template`),
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "template.ts"),
    `export const markers = ${JSON.stringify(spellings)};\nexport function frameTurn(text: string) {\n  return \`${spellings.join("")}\${text}\`;\n}\n`,
  );
  provider = await spawnStdioProvider({ id: "demo", command: process.execPath, args: [cli, dir] });
}, 30_000);

afterAll(async () => {
  await provider?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe("special-token spellings are ordinary text", () => {
  it("knows every spelling gpt-tokenizer knows (the list is not empty)", () => {
    expect(spellings).toContain("<|endoftext|>");
    expect(spellings).toContain("<|im_start|>");
    expect(spellings.length).toBeGreaterThan(10);
  });

  it("the provider indexes a tree that spells them all and answers a query with them", async () => {
    const result = await provider.query({
      goal: "which markers frame a turn of the chat template?",
      kinds: [],
      anchors: [],
      max_frames: 4,
      max_tokens: 2000,
    });
    expect(result.frames.length).toBeGreaterThan(0);
    const served = result.frames.map((f) => f.content).join("\n");
    expect(served).toContain("<|endoftext|>");
    for (const frame of result.frames) {
      expect(frame.token_cost).toBe(sharedCount(frame.content));
    }
  });

  it("counts with the shared counter: one policy for every count", () => {
    const text = spellings.join(" ");
    expect(countTokens(text)).toBe(sharedCount(text));
    expect(countTokens(text)).toBeGreaterThan(spellings.length); // text, not one token each
  });
});
