import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  countTokens,
  MEMO_BUCKET_SIZE,
  MEMO_MAX_CHARS,
  MEMO_MAX_KEY_CHARS,
  MEMO_MIN_CHARS,
  tokenCeiling,
} from "../src/tokens.js";

const AS_TEXT = { disallowedSpecial: new Set<string>() };
const exact = (text: string) => countO200k(text, AS_TEXT);

describe("the shared token counter", () => {
  it("counts as the BPE does, whether the count is remembered or not", () => {
    const texts = [
      "short",
      "x".repeat(MEMO_MIN_CHARS),
      "the host audits declared costs ".repeat(40),
      "日本語のテキスト🙂".repeat(50),
      "<|endoftext|> is ordinary text here ".repeat(10),
      "y".repeat(MEMO_MAX_KEY_CHARS + 1),
    ];
    for (let round = 0; round < 3; round += 1) {
      for (const text of texts) expect(countTokens(text)).toBe(exact(text));
    }
  });

  it("texts that share a length and every sampled character are told apart and each counted exactly", () => {
    // Differ only at one position that no key samples (the key reads 32 spread characters).
    const base = "the host audits declared costs and ".repeat(30);
    const texts = Array.from({ length: MEMO_BUCKET_SIZE * 3 }, (_, i) => {
      const at = 17 + i;
      return `${base.slice(0, at)}${String.fromCharCode(65 + i)}${base.slice(at + 1)}`;
    });
    for (let round = 0; round < 3; round += 1) {
      for (const text of texts) expect(countTokens(text)).toBe(exact(text));
      for (const text of [...texts].reverse()) expect(countTokens(text)).toBe(exact(text));
    }
  });

  it("a text freshly decoded from JSON hits the count remembered for an equal text", () => {
    const text = "a frame's content as the wire carries it, ".repeat(90);
    const first = countTokens(text);
    const decoded = (JSON.parse(JSON.stringify({ text })) as { text: string }).text;
    expect(decoded).toBe(text);
    expect(countTokens(decoded)).toBe(first);
    expect(first).toBe(exact(text));
  });

  it("stays exact past its bound, as it forgets the oldest counts", () => {
    const size = 10_000;
    const texts = Array.from({ length: Math.ceil((2 * MEMO_MAX_CHARS) / size) }, (_, i) =>
      `${i} `.repeat(size / 4).slice(0, size),
    );
    const first = texts.map(countTokens);
    // The earliest were forgotten, the latest are remembered: both count the same.
    for (const i of [0, 1, texts.length - 2, texts.length - 1]) {
      expect(countTokens(texts[i]!)).toBe(first[i]);
      expect(first[i]).toBe(exact(texts[i]!));
    }
  }, 60_000);

  it("bounds a count by the UTF-8 byte length, without the BPE", () => {
    for (const text of ["", "abc", "é", "日本", "🙂", "\ud800x", "a\u0000b"]) {
      expect(tokenCeiling(text)).toBeGreaterThanOrEqual(exact(text));
    }
    expect(tokenCeiling("é".repeat(100))).toBe(200);
    expect(tokenCeiling("🙂".repeat(100))).toBe(400);
    expect(tokenCeiling("\ud800".repeat(100))).toBe(300);
  });
});
