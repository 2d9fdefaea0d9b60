import { BASE64_PATTERN } from "./wire-patterns.js";

/**
 * Standard padded base64 (RFC 4648 §4) without `Buffer`, so the portable
 * entry point stays browser-safe. Decoding is strict: anything that is not
 * canonical padded base64 gives `undefined`, never a partial result.
 */

const CHUNK = 0x8000;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** Up to this many bytes, a table lookup beats building a binary string for `btoa` several times. */
const TABLE_MAX_BYTES = 4096;

/** Encodes bytes as padded base64. */
export function toBase64(bytes: Uint8Array): string {
  if (bytes.length <= TABLE_MAX_BYTES) return tableBase64(bytes);
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

function tableBase64(bytes: Uint8Array): string {
  let out = "";
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      ALPHABET[v >> 18]! + ALPHABET[(v >> 12) & 63]! + ALPHABET[(v >> 6) & 63]! + ALPHABET[v & 63]!;
  }
  if (i < n) {
    const two = i + 1 < n;
    const v = (bytes[i]! << 16) | ((two ? bytes[i + 1]! : 0) << 8);
    out += `${ALPHABET[v >> 18]!}${ALPHABET[(v >> 12) & 63]!}${two ? ALPHABET[(v >> 6) & 63]! : "="}=`;
  }
  return out;
}

/** Decodes padded base64, or gives `undefined` when `text` is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!BASE64_PATTERN.test(text)) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decodes base64 that must hold exactly `length` bytes. */
export function fromBase64Exact(text: string, length: number): Uint8Array | undefined {
  const bytes = fromBase64(text);
  return bytes !== undefined && bytes.length === length ? bytes : undefined;
}
