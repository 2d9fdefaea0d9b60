/**
 * A random version 4 UUID (RFC 9562 §5.4): `crypto.randomUUID` where the
 * runtime offers it (Node, Deno, Bun, browsers in secure contexts; it draws
 * from a pooled random buffer, several times faster), else built on
 * `crypto.getRandomValues`, which every browser has even on a page served
 * over plain HTTP from anything but localhost, where `randomUUID` is absent.
 */
const native = (globalThis.crypto as { randomUUID?: () => string }).randomUUID?.bind(
  globalThis.crypto,
);

export function randomUuid(): string {
  if (native !== undefined) return native();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
