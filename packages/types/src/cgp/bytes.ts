/**
 * Byte-level primitives of the Context Graph Protocol, dependency-free and
 * synchronous so they run unchanged in every runtime `src/` targets: UTF-8
 * length and encoding, SHA-256, and the canonical token cost (B3).
 */

/**
 * The number of bytes `text` takes in UTF-8. A lone surrogate counts as the
 * three bytes of U+FFFD, which is what every UTF-8 encoder writes for it.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** `text` as UTF-8 bytes (lone surrogates become U+FFFD). */
export function utf8Encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * B3 (ADR 0003): the canonical token cost of a frame's inline content,
 * `ceil(utf8_byte_length(content) / 4)`. An accounting unit both parties
 * compute from bytes they both see, not a tokenizer's count.
 */
export function canonicalTokenCost(content: string): number {
  return Math.ceil(utf8ByteLength(content) / 4);
}

/**
 * §7.2 (informative): the headroom a host applies when it maps a real model
 * budget into budget tokens, which under-estimate source code and CJK text.
 */
export const CGP_HOST_SAFETY_FACTOR = 1.35;

/**
 * The budget tokens (`max_tokens`) a host asks for when it has `modelTokens`
 * of real model context: `floor(modelTokens / factor)`, so honest providers
 * filling the budget exactly do not overflow the model window. A budget token
 * is an accounting unit, never one model token.
 *
 * @throws {RangeError} when `modelTokens` is not a non-negative integer or
 * `factor` is not a finite number ≥ 1.
 */
export function budgetFromModelTokens(
  modelTokens: number,
  factor = CGP_HOST_SAFETY_FACTOR,
): number {
  if (!Number.isInteger(modelTokens) || modelTokens < 0) {
    throw new RangeError(`modelTokens must be a non-negative integer (got ${String(modelTokens)})`);
  }
  if (!Number.isFinite(factor) || factor < 1) {
    throw new RangeError(`factor must be a finite number ≥ 1 (got ${String(factor)})`);
  }
  // rounded to 6 decimals first, so a binary-float quotient such as
  // 1350 / 1.35 = 999.99999… reads as the 1000 it is
  return Math.floor(Math.round((modelTokens / factor) * 1e6) / 1e6);
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The SHA-256 (FIPS 180-4) of `bytes`, as 32 bytes. */
export function sha256(bytes: Uint8Array): Uint8Array {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array((((bytes.length + 9 + 63) >> 6) << 6) >>> 0);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x1_0000_0000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let t = 0; t < 64; t++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + K[t]! + w[t]!) >>> 0;
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + hh) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}

/**
 * F5 / D1: the protocol's digest of `data`, `sha256:<64 lowercase hex>`. A
 * string is digested as its UTF-8 bytes, with no normalization (no
 * line-ending translation, no trailing-newline adjustment).
 */
export function sha256Digest(data: string | Uint8Array): string {
  const digest = sha256(typeof data === "string" ? utf8Encode(data) : data);
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}
