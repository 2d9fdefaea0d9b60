/**
 * A random version 4 UUID (RFC 9562 §5.4). Built on `crypto.getRandomValues`,
 * which every browser, worker, Deno, Bun and Node ≥ 20 has, rather than
 * `crypto.randomUUID`, which browsers only expose in secure contexts (a page
 * served over plain HTTP from anything but localhost has none).
 */
export function randomUuid(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
