/**
 * The encoding rules every Ed25519 backend of this package applies before its
 * own verification, so that all of them accept exactly the same signatures.
 *
 * RFC 8032 leaves room here and the libraries differ: `node:crypto`
 * (OpenSSL 3) accepts a public key of small order, and with the identity
 * point as the key the signature "identity point, S = 0" verifies for every
 * message, so anyone could sign for such a key; noble refuses that key,
 * libsodium refuses it and also a signature whose R has small order (which
 * only the key's holder can make, and which OpenSSL and noble accept). A hub
 * on one backend and a recipient on another would then disagree about what
 * an agent signed. The rules below are libsodium's, checked on the bytes
 * before any curve arithmetic (a few comparisons of 32 bytes):
 *
 * - the public key A and the point R (the signature's first half) are
 *   canonical encodings (their y, sign bit cleared, is below p = 2^255 - 19);
 * - neither A nor R is a point of small order (order 1, 2, 4 or 8);
 * - the scalar S (the signature's second half) is below the group order L.
 */

/** y = 2^255 - 19, little-endian: an encoding whose y (sign bit cleared) is not below it is not canonical. */
const P = fromHex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
/** The order of the prime subgroup, L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
const L = fromHex("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");

/**
 * The canonical encodings of the eight points of small order, sign bit cleared
 * (a point and its negation share y): the identity (y = 1), the point of order
 * 2 (y = p - 1), the two of order 4 (y = 0) and the four of order 8 (two
 * values of y). The test derives them from the curve's arithmetic.
 */
export const SMALL_ORDER_Y: readonly Uint8Array[] = [
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0100000000000000000000000000000000000000000000000000000000000000",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
].map(fromHex);

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Whether the 32 little-endian bytes at `offset` (top bit cleared when `masked`) are below `bound`. */
function below(bytes: Uint8Array, offset: number, bound: Uint8Array, masked: boolean): boolean {
  for (let i = 31; i >= 0; i--) {
    const byte = i === 31 && masked ? bytes[offset + i]! & 0x7f : bytes[offset + i]!;
    if (byte !== bound[i]) return byte < bound[i]!;
  }
  return false;
}

/** Whether the point encoded at `offset` is of small order (its y, sign bit cleared, is one of {@link SMALL_ORDER_Y}). */
function smallOrder(bytes: Uint8Array, offset: number): boolean {
  next: for (const y of SMALL_ORDER_Y) {
    for (let i = 0; i < 31; i++) if (bytes[offset + i] !== y[i]) continue next;
    if ((bytes[offset + 31]! & 0x7f) === y[31]) return true;
  }
  return false;
}

/**
 * Whether a signature and a public key pass the encoding rules above: the
 * sizes (64 and 32 bytes), canonical A and R, neither of small order, S
 * below L. Every backend returns `false` without verifying when they do not.
 */
export function ed25519EncodingsAcceptable(signature: Uint8Array, publicKey: Uint8Array): boolean {
  return (
    signature.length === 64 &&
    publicKey.length === 32 &&
    below(publicKey, 0, P, true) &&
    below(signature, 0, P, true) &&
    below(signature, 32, L, false) &&
    !smallOrder(publicKey, 0) &&
    !smallOrder(signature, 0)
  );
}
